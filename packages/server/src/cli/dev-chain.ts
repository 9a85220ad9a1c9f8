import { Option, type Command } from 'commander';
import { callAdmin, connect, DEFAULT_SERVER } from './admin-client.js';
import { CliError, ExitCodes } from './cli-error.js';

/**
 * `coinop dev-chain deposit`: a deposit into the dev chain's vault from one of Anvil's unlocked
 * accounts (the demo wallets), as a wallet would make it, for trying deposits from a terminal.
 * It talks to the dev chain `coinop serve --dev-chain` runs, found through the data directory.
 * What it needs (viem, the config) loads when it runs, so other commands start without it.
 */
export function addDevChainCommands(program: Command): void {
  const group = program
    .command('dev-chain')
    .description('the local chain of coinop serve --dev-chain (test HST only)');
  group
    .command('deposit')
    .description(
      "deposit test HST from one of Anvil's accounts (a demo wallet) into the vault for a " +
        'coinop account',
    )
    .requiredOption(
      '--from <address>',
      "the wallet: one of Anvil's accounts, which Anvil signs for",
    )
    .requiredOption(
      '--account <id|wallet>',
      "the player, developer or ledger account id to credit, or a player's wallet address " +
        '(looked up through the admin API at --server)',
    )
    .requiredOption('--amount <hst>', 'HST, at most 8 decimals')
    .addOption(
      new Option('--data-dir <dir>', 'where serve keeps the dev chain').env('COINOP_DATA_DIR'),
    )
    .addOption(
      new Option(
        '--server <url>',
        `arcade API URL, to look up a wallet's player (default ${DEFAULT_SERVER})`,
      ).env('COINOP_SERVER'),
    )
    .addOption(
      new Option('--admin-token <token>', 'admin token (default: <data-dir>/admin-token)').env(
        'COINOP_ADMIN_TOKEN',
      ),
    )
    .addOption(
      new Option('--dev-chain-port <port>', "the dev chain's port (default 8545)").env(
        'COINOP_DEV_CHAIN_PORT',
      ),
    )
    .action(async (options: DepositOptions) => {
      process.stdout.write(`${JSON.stringify(await deposit(options), null, 2)}\n`);
    });
}

interface DepositOptions {
  from: string;
  account: string;
  amount: string;
  dataDir?: string;
  devChainPort?: string;
  server?: string;
  adminToken?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id `--account` names: a UUID as given, or the id of the player whose wallet it is, asked of
 * the running arcade's admin API (the dev chain knows no players).
 */
async function resolveAccount(options: DepositOptions): Promise<string> {
  const { isAddress } = await import('viem');
  if (UUID.test(options.account)) return options.account;
  if (!isAddress(options.account, { strict: false })) {
    throw new CliError(
      `--account must be a coinop id (a UUID) or a player's wallet address, got ${options.account}`,
      ExitCodes.usage,
    );
  }
  const conn = await connect(options);
  try {
    const player = (await callAdmin(conn, {
      method: 'GET',
      path: `/admin/players/${options.account}`,
    })) as { playerId: string };
    // The player's id, as a wallet's deposit names it (the vault credits a player by either).
    return player.playerId;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(
      `--account ${options.account}: ${error.message} at ${conn.server}`,
      ExitCodes.failure,
    );
  }
}

async function deposit(options: DepositOptions) {
  const { formatHst, parseHst } = await import('@coinop/core');
  const { getAddress, isAddress } = await import('viem');
  const { DEFAULTS, loadConfig } = await import('../config.js');
  if (!isAddress(options.from, { strict: false })) {
    throw new CliError(`--from must be a wallet address, got ${options.from}`, ExitCodes.usage);
  }
  let units: bigint;
  try {
    units = parseHst(options.amount, '--amount');
  } catch (error) {
    throw new CliError((error as Error).message, ExitCodes.usage);
  }
  if (units === 0n) throw new CliError('--amount must be more than 0', ExitCodes.usage);
  const account = await resolveAccount(options);
  const config = loadConfig({
    dataDir: options.dataDir,
    devChain: true,
    devChainPort: options.devChainPort,
  });
  const devChain = config.devChain;
  if (!devChain) throw new TypeError('loadConfig dropped --dev-chain');
  const { DevChainFunds } = await import('../dev-chain/dev-chain-funds.js');
  const { readDevChainDeployment, DevChainError } = await import('../dev-chain/dev-chain.js');
  const { describeChainError } = await import('../chain/rpc.js');
  const rpcUrl = `http://${devChain.host}:${devChain.port}`;
  try {
    const deployment = await readDevChainDeployment(devChain.dir);
    const funds = new DevChainFunds({
      rpcUrl,
      vaultAddress: deployment.vault,
      startBlock: BigInt(deployment.vaultBlockNumber),
      devChainMinter: deployment.admin,
      rpcTimeoutMs: DEFAULTS.chainRpcTimeoutMs,
    });
    const from = getAddress(options.from);
    const held = await funds.walletHst(from);
    if (held < units) {
      throw new CliError(
        `${from} holds ${formatHst(held)} HST on the dev chain, less than ${formatHst(units)} HST`,
        ExitCodes.failure,
      );
    }
    const txHash = await funds.depositFrom(from, account, units);
    return { txHash, from, account, amount: options.amount };
  } catch (error) {
    if (error instanceof DevChainError) throw new CliError(error.message, ExitCodes.failure);
    if (error instanceof CliError) throw error;
    // Anvil stopped (or another port): one line naming the RPC and the cause, not viem's dump.
    throw new CliError(
      `the dev chain did not answer: ${describeChainError(error, rpcUrl)} ` +
        '(is coinop serve --dev-chain running?)',
      ExitCodes.failure,
    );
  }
}
