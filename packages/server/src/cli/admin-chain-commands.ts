import { userInfo } from 'node:os';
import { ACCOUNT_FLAG, ACCOUNT_HELP, id, numberOrText, type AdminCommand } from './admin-spec.js';

/** Who resumes, unless --by says: the name this operator is logged in as. */
const localUser = (): string => {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
};

const CHAIN_ID_OPTION = {
  flags: '--chain-id <id>',
  description: 'only if the transfer was read on two chains',
};

/** `coinop admin chain …`: the chain watcher, deposits, withdrawals, plays, halts and surplus. */

export const CHAIN_COMMANDS: readonly AdminCommand[] = [
  {
    words: ['chain', 'status'],
    description:
      'the chain watcher: chain, vault, checkpoint, head and lag, last error, held deposits',
    options: [],
    request: () => ({ method: 'GET', path: '/admin/chain' }),
  },
  {
    words: ['chain', 'deposits'],
    description: 'deposits read from the vault, newest first',
    options: [
      { flags: '--held', description: 'only the held ones (not credited: see credit-held)' },
      { flags: '--limit <n>', description: 'how many, 1 to 500 (default 100)' },
    ],
    request: (v) => {
      const query = new URLSearchParams();
      // An on/off flag: commander gives true, not text.
      if ((v as Record<string, unknown>)['held'] === true) query.set('status', 'held');
      if (v['limit'] !== undefined) query.set('limit', v['limit']);
      const search = query.size > 0 ? `?${query}` : '';
      return { method: 'GET', path: `/admin/chain/deposits${search}` };
    },
  },
  {
    words: ['chain', 'withdrawals'],
    description: 'withdrawals of every account, newest first',
    options: [
      { flags: '--status <status>', description: 'queued, sent, paid or failed' },
      { flags: '--limit <n>', description: 'how many, 1 to 100 (default 20)' },
      { flags: '--before <id>', description: 'the last withdrawal of the page before' },
    ],
    request: (v) => {
      const query = new URLSearchParams();
      for (const name of ['status', 'limit', 'before']) {
        const value = v[name];
        if (value !== undefined) query.set(name, value);
      }
      const search = query.size > 0 ? `?${query}` : '';
      return { method: 'GET', path: `/admin/chain/withdrawals${search}` };
    },
  },
  {
    words: ['chain', 'plays'],
    description: 'plays locked from wallets, most recently changed first',
    options: [
      {
        flags: '--state <state>',
        description: 'requested, open, refund_due, sent, settled, refunded or reclaimed',
      },
      { flags: '--limit <n>', description: 'how many, 1 to 100 (default 20)' },
    ],
    request: (v) => {
      const query = new URLSearchParams();
      for (const name of ['state', 'limit']) {
        const value = v[name];
        if (value !== undefined) query.set(name, value);
      }
      const search = query.size > 0 ? `?${query}` : '';
      return { method: 'GET', path: `/admin/chain/plays${search}` };
    },
  },
  {
    words: ['chain', 'credit-held'],
    description: 'credit a held deposit to a player or developer account, once',
    argument: { name: 'deposit', description: 'the deposit: <txHash>:<logIndex>' },
    options: [
      { flags: ACCOUNT_FLAG, description: ACCOUNT_HELP, required: true },
      { flags: '--chain-id <id>', description: 'only if the deposit was read on two chains' },
    ],
    request: (v) => ({
      method: 'POST',
      path: `/admin/chain/deposits/${id(v['deposit'])}/credit`,
      body: {
        accountId: v['account'],
        ...(v['chainId'] === undefined ? {} : { chainId: numberOrText(v['chainId']) }),
      },
    }),
  },
  {
    words: ['chain', 'resume'],
    description:
      "resume the vault's senders after a halt, once reconciled (docs/operating/chain.md)",
    options: [
      {
        flags: '--reason <text>',
        description: 'why it is safe now: what you found and did (recorded with the halt)',
        required: true,
      },
      { flags: '--by <name>', description: 'who resumes (default: your user name here)' },
      {
        flags: '--from-block <n>',
        description: 'after a reorganisation: the first block to read again, at or below the fork',
      },
      {
        flags: '--accept-shortfall <hst>',
        description: 'a shortfall covered outside the vault: exactly what the audit shows',
      },
    ],
    request: (v) => ({
      method: 'POST',
      path: '/admin/chain/resume',
      body: {
        by: v['by'] ?? localUser(),
        reason: v['reason'],
        ...(v['fromBlock'] === undefined ? {} : { fromBlock: numberOrText(v['fromBlock']) }),
        ...(v['acceptShortfall'] === undefined ? {} : { acceptShortfall: v['acceptShortfall'] }),
      },
    }),
  },
  {
    words: ['chain', 'halts'],
    description: "the vault's halts, newest first: why, and who resumed, when and why",
    options: [{ flags: '--limit <n>', description: 'how many, 1 to 100 (default 20)' }],
    request: (v) => ({
      method: 'GET',
      path: `/admin/chain/halts${v['limit'] === undefined ? '' : `?limit=${id(v['limit'])}`}`,
    }),
  },
  {
    words: ['chain', 'surplus'],
    description: 'HST sent to the vault without a deposit (plain transfers), newest first',
    options: [
      {
        flags: '--status <status>',
        description: 'unsolicited (not settled yet), credited, swept or covered',
      },
      { flags: '--limit <n>', description: 'how many, 1 to 500 (default 100)' },
    ],
    request: (v) => {
      const query = new URLSearchParams();
      for (const name of ['status', 'limit']) {
        const value = v[name];
        if (value !== undefined) query.set(name, value);
      }
      const search = query.size > 0 ? `?${query}` : '';
      return { method: 'GET', path: `/admin/chain/surplus${search}` };
    },
  },
  {
    words: ['chain', 'credit-surplus'],
    description: 'credit a surplus to a player, a developer or the arcade, once',
    argument: { name: 'surplus', description: 'the surplus: <txHash>:<logIndex>' },
    options: [{ flags: ACCOUNT_FLAG, description: ACCOUNT_HELP, required: true }, CHAIN_ID_OPTION],
    request: (v) => ({
      method: 'POST',
      path: `/admin/chain/surplus/${id(v['surplus'])}/credit`,
      body: {
        accountId: v['account'],
        ...(v['chainId'] === undefined ? {} : { chainId: numberOrText(v['chainId']) }),
      },
    }),
  },
  {
    words: ['chain', 'sweep-surplus'],
    description:
      "send a surplus out to an address: credited to the arcade's account and withdrawn, once",
    argument: { name: 'surplus', description: 'the surplus: <txHash>:<logIndex>' },
    options: [
      { flags: '--to <address>', description: 'where to pay it (0x + 40 hex)', required: true },
      CHAIN_ID_OPTION,
    ],
    request: (v) => ({
      method: 'POST',
      path: `/admin/chain/surplus/${id(v['surplus'])}/sweep`,
      body: {
        to: v['to'],
        ...(v['chainId'] === undefined ? {} : { chainId: numberOrText(v['chainId']) }),
      },
    }),
  },
  {
    words: ['chain', 'cover-shortfall'],
    description: 'let a surplus back what the ledger owes (a lost deposit, minted HST), once',
    argument: { name: 'surplus', description: 'the surplus: <txHash>:<logIndex>' },
    options: [
      {
        flags: '--note <text>',
        description: 'which shortfall it covers and why (recorded with it)',
        required: true,
      },
      CHAIN_ID_OPTION,
    ],
    request: (v) => ({
      method: 'POST',
      path: `/admin/chain/surplus/${id(v['surplus'])}/cover`,
      body: {
        note: v['note'],
        ...(v['chainId'] === undefined ? {} : { chainId: numberOrText(v['chainId']) }),
      },
    }),
  },
];
