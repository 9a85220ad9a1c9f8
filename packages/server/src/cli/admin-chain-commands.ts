import { ACCOUNT_FLAG, ACCOUNT_HELP, id, numberOrText, type AdminCommand } from './admin-spec.js';

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
];
