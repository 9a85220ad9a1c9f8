import { Option, type Command } from 'commander';
import { addChainDeployCommand } from './chain-deploy.js';
import { addOperatorKeyCommands } from './operator-key.js';
import { DEFAULT_DATA_DIR, DEFAULT_SERVER, callAdmin, connect } from './admin-client.js';
import { CliError, ExitCodes } from './cli-error.js';
import { CHAIN_COMMANDS } from './admin-chain-commands.js';
import { GAME_COMMANDS } from './admin-game-commands.js';
import { LEDGER_COMMANDS } from './admin-ledger-commands.js';
import {
  ACCOUNT_FLAG,
  ACCOUNT_HELP,
  id,
  numberOrText,
  PAGE_OPTIONS,
  pageQuery,
  type AdminCommand,
  type Values,
} from './admin-spec.js';

/** `coinop admin …`: one subcommand per admin API route, each a thin client printing JSON. */

/**
 * Why `hst audit` fails, if it does: the ledger does not balance, or (with --chain) the vault
 * does not reconcile with it, each finding on a line of its own.
 */
function auditFailure(answer: unknown): string | null {
  const audit = answer as {
    balanced?: unknown;
    chain?: { reconciled?: unknown; unexplained?: unknown; findings?: unknown };
  };
  const problems: string[] = [];
  if (audit.balanced !== true) {
    problems.push('the ledger does not balance: stop and investigate (docs/concepts/ledger.md)');
  }
  const chain = audit.chain;
  if (chain !== undefined && chain.reconciled !== true) {
    const findings = Array.isArray(chain.findings) ? chain.findings.map(String) : [];
    problems.push(
      `the vault does not reconcile with the ledger: ${String(chain.unexplained)} HST ` +
        'unexplained (docs/operating/chain.md)',
      ...findings,
    );
  }
  return problems.length === 0 ? null : problems.join('\ncoinop: ');
}

/**
 * In chain mode, what the plain `hst audit` does not say: it audits
 * the ledger alone, so it is "balanced" while the vault is short; and minted HST is a shortfall.
 */
function auditNotes(answer: unknown): string[] {
  const audit = answer as { chainMode?: unknown; minted?: unknown; chain?: unknown };
  if (audit.chainMode !== true || audit.chain !== undefined) return [];
  const notes = [
    'chain mode: this audits the ledger alone; coinop admin hst audit --chain reconciles the ' +
      'vault with it (docs/operating/chain.md)',
  ];
  if (audit.minted !== '0') {
    notes.push(
      `${String(audit.minted)} HST was minted in the ledger: in chain mode no token backs it, ` +
        'a shortfall (docs/operating/chain.md)',
    );
  }
  return notes;
}

/** What each group of admin commands is about, for `coinop admin --help`. */
const ADMIN_GROUPS: Readonly<Record<string, string>> = {
  developer: 'game developers: create one and issue it an API key, list them',
  client: "game servers' client credentials: issue a client id and secret for a game",
  player:
    'players: create one, search them, look one up by id or wallet, read their history, reset an ' +
    'abusive name and avatar, mint a test token',
  hst: 'the ledger: mint HST, read a balance, audit every account (exit 1 if unbalanced)',
  game: 'games: list them; publish, unpublish, suspend and resume one',
  publish: "developers' publish requests: the queue; approve or decline one",
  scores: 'scores: void one found false; the held payouts it caused are re-settled',
  leaderboard: "a game's leaderboards (tiers): add one",
  tournament: 'tournaments and seasons: create one (funded by the arcade), list them, stop one',
  keys: 'the keys that sign player tokens: rotate them',
  chain:
    'chain mode: deploy the contracts; deposits, withdrawals, plays, the operator key; halts ' +
    'and resume; surplus',
};

export const ADMIN_COMMANDS: readonly AdminCommand[] = [
  {
    words: ['developer', 'create'],
    description: 'create the developer of a wallet and issue it an API key',
    options: [
      { flags: '--wallet <address>', description: 'wallet address (0x + 40 hex)', required: true },
    ],
    request: (v) => ({ method: 'POST', path: '/admin/developers', body: { wallet: v['wallet'] } }),
  },
  {
    words: ['developer', 'list'],
    description: 'list developers: id, wallet, how many games, balance, when created',
    options: [
      { flags: '--search <id|wallet>', description: 'only the developer of this id or wallet' },
      ...PAGE_OPTIONS('developers'),
    ],
    request: (v) => {
      const query = new URLSearchParams(pageQuery(v));
      if (v['search'] !== undefined) query.set('search', v['search']);
      return { method: 'GET', path: `/admin/developers${query.size > 0 ? `?${query}` : ''}` };
    },
  },
  {
    words: ['client', 'create'],
    description: "issue a client id and secret for a game's server",
    options: [{ flags: '--game <id>', description: 'game id', required: true }],
    request: (v) => ({ method: 'POST', path: `/admin/games/${id(v['game'])}/clients` }),
  },
  {
    words: ['player', 'create'],
    description: 'create a player',
    options: [
      { flags: '--wallet <address>', description: 'wallet address (0x + 40 hex)', required: true },
      { flags: '--name <name>', description: 'display name (default: from the wallet)' },
    ],
    request: (v) => ({
      method: 'POST',
      path: '/admin/players',
      body: { wallet: v['wallet'], ...(v['name'] === undefined ? {} : { name: v['name'] }) },
    }),
  },
  {
    words: ['player', 'get'],
    description: 'show a player: id, wallet, name, account and HST balance',
    argument: { name: 'player', description: 'player id, or wallet address (0x + 40 hex)' },
    options: [],
    request: (v) => ({ method: 'GET', path: `/admin/players/${id(v['player'])}` }),
  },
  {
    words: ['player', 'activity'],
    description:
      "a player's history, newest first: plays with scores, payouts, payments, deposits, " +
      'withdrawals, grants and tournament prizes; --cursor for older lines',
    argument: { name: 'player', description: 'player id, or wallet address (0x + 40 hex)' },
    options: [
      { flags: '--limit <n>', description: 'how many lines: 1 to 100 (default 25)' },
      { flags: '--cursor <cursor>', description: 'the `nextCursor` of the page before' },
      {
        flags: '--kind <kinds>',
        description:
          'only these kinds, comma-separated: play,payout,payment,deposit,withdrawal,grant,prize',
      },
    ],
    request: (v) => {
      const query = new URLSearchParams();
      for (const name of ['limit', 'cursor', 'kind']) {
        const value = v[name];
        if (value !== undefined) query.set(name, value);
      }
      const path = `/admin/players/${id(v['player'])}/activity`;
      return { method: 'GET', path: query.size > 0 ? `${path}?${query}` : path };
    },
  },
  {
    words: ['player', 'list'],
    description: 'list players, newest first, with balances; --search by id, wallet or name',
    options: [
      { flags: '--search <text>', description: 'a player id, a wallet, or words of the name' },
      ...PAGE_OPTIONS('players'),
    ],
    request: (v) => {
      const query = new URLSearchParams(pageQuery(v));
      if (v['search'] !== undefined) query.set('search', v['search']);
      return { method: 'GET', path: `/admin/players${query.size > 0 ? `?${query}` : ''}` };
    },
  },
  {
    words: ['player', 'token'],
    description: 'mint a player token, to test a game server without a browser',
    options: [
      { flags: '--player <id|wallet>', description: 'player id or wallet address', required: true },
      { flags: '--ttl <seconds>', description: 'lifetime (default: --player-token-ttl)' },
      {
        flags: '--game <id>',
        description: "the game whose server it is for (game servers refuse other games' tokens)",
      },
    ],
    request: (v) => ({
      method: 'POST',
      path: `/admin/players/${id(v['player'])}/token`,
      body: {
        ...(v['ttl'] === undefined ? {} : { ttl: numberOrText(v['ttl']) }),
        ...(v['game'] === undefined ? {} : { gameId: v['game'] }),
      },
    }),
  },
  {
    words: ['player', 'reset-profile'],
    description:
      "reset an abusive display name to the default and remove the player's uploaded avatar; " +
      'the reason is kept',
    argument: { name: 'player', description: 'player id, or wallet address (0x + 40 hex)' },
    options: [
      { flags: '--reason <text>', description: 'why (3 to 500 characters)', required: true },
    ],
    request: (v) => ({
      method: 'POST',
      path: `/admin/players/${id(v['player'])}/reset-profile`,
      body: { reason: v['reason'] },
    }),
  },
  {
    words: ['keys', 'rotate'],
    description: 'retire the player-token signing key and sign with a new one',
    options: [],
    request: () => ({ method: 'POST', path: '/admin/keys/rotate' }),
  },
  {
    words: ['keys', 'revoke'],
    description:
      'after a leak: delete every player-token signing key and sign with a new one; every ' +
      'player token issued before stops working, and players sign in again',
    options: [],
    request: () => ({ method: 'POST', path: '/admin/keys/revoke' }),
  },
  {
    words: ['hst', 'mint'],
    description: 'mint HST into an account (ledger mode only: refused in chain mode)',
    options: [
      { flags: ACCOUNT_FLAG, description: ACCOUNT_HELP, required: true },
      {
        flags: '--amount <hst>',
        description: 'HST, at most 8 decimals (e.g. 12.5)',
        required: true,
      },
      { flags: '--transfer-id <uuid>', description: 'idempotency key: a retry with it is a no-op' },
    ],
    request: (v) => ({
      method: 'POST',
      path: '/admin/hst/mints',
      // The amount goes as the decimal text typed, so no digit is lost to floating point.
      body: {
        accountId: v['account'],
        amount: v['amount'],
        ...(v['transferId'] === undefined ? {} : { transferId: v['transferId'] }),
      },
    }),
  },
  {
    words: ['hst', 'balance'],
    description: "show an account's spendable and locked HST",
    options: [{ flags: ACCOUNT_FLAG, description: ACCOUNT_HELP, required: true }],
    request: (v) => ({ method: 'GET', path: `/admin/hst/balances/${id(v['account'])}` }),
  },
  {
    words: ['hst', 'audit'],
    description:
      'total debits and credits over all accounts, HST minted, and whether they balance; with ' +
      '--chain, the chain vault reconciled with the ledger',
    options: [
      {
        flags: '--chain',
        description:
          "reconcile the vault's HST on chain with what the ledger owes, at one block (exit 1 " +
          'on any unexplained difference)',
      },
    ],
    request: (v) => ({
      method: 'GET',
      path:
        (v as Record<string, unknown>)['chain'] === true
          ? '/admin/hst/audit?chain=true'
          : '/admin/hst/audit',
    }),
    failsWhen: auditFailure,
    notes: auditNotes,
  },
  ...LEDGER_COMMANDS,
  ...GAME_COMMANDS,
  ...CHAIN_COMMANDS,
];

/** Adds `admin` and its subcommands to the program. */
export function addAdminCommands(program: Command): void {
  const admin = program
    .command('admin')
    .description('operator commands: a client of the admin API (prints JSON)')
    .addHelpText(
      'after',
      `
Each command calls the arcade API at --server (COINOP_SERVER, default ${DEFAULT_SERVER}) with
the admin token: --admin-token (COINOP_ADMIN_TOKEN), else <--data-dir>/admin-token. Accounts
and players are named by id or by wallet address (0x…). It prints the answer as JSON; exit
1 on an API error or a failed audit (its message on stderr), 2 on a usage error.

Examples:
  coinop admin game list --limit 50
  coinop admin player get 0x52908400098527886E0F7030069857D2E4169EE7
  coinop admin hst mint --account 0x52908400098527886E0F7030069857D2E4169EE7 --amount 10`,
    );
  const nouns = new Map<string, Command>();
  for (const spec of ADMIN_COMMANDS) {
    const [noun, verb] = spec.words;
    let group = nouns.get(noun);
    if (!group) {
      group = admin.command(noun).description(ADMIN_GROUPS[noun] ?? `${noun} commands`);
      nouns.set(noun, group);
    }
    const command = group.command(verb).description(spec.description);
    const argument = spec.argument;
    if (argument) command.argument(`<${argument.name}>`, argument.description);
    for (const option of spec.options) {
      if (option.required) command.requiredOption(option.flags, option.description);
      else command.option(option.flags, option.description);
    }
    addConnectionOptions(command);
    command.action(async (...args: unknown[]) => {
      // Commander passes the positional argument first when there is one, then the options.
      const values = { ...(args[argument ? 1 : 0] as Values) };
      if (argument) values[argument.name] = args[0] as string;
      const conn = await connect(values);
      const body = await callAdmin(conn, spec.request(values));
      process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
      for (const note of spec.notes?.(body) ?? []) process.stderr.write(`coinop: ${note}\n`);
      const failure = spec.failsWhen?.(body) ?? null;
      if (failure !== null) throw new CliError(failure, ExitCodes.failure);
    });
  }
  const chain = nouns.get('chain');
  if (chain) {
    addOperatorKeyCommands(chain);
    addChainDeployCommand(chain);
  }
}

function addConnectionOptions(command: Command): void {
  command
    .addOption(
      new Option('--server <url>', `arcade API URL (default ${DEFAULT_SERVER})`).env(
        'COINOP_SERVER',
      ),
    )
    .addOption(new Option('--admin-token <token>', 'admin token').env('COINOP_ADMIN_TOKEN'))
    .addOption(
      new Option(
        '--data-dir <dir>',
        `where to find admin-token when no token is given (default ${DEFAULT_DATA_DIR})`,
      ).env('COINOP_DATA_DIR'),
    );
}
