import type { AdminCommand } from './admin-spec.js';

/** The filters of `hst transfers`, each passed to the API under its own name. */
const TRANSFER_FILTERS = ['player', 'account', 'kind', 'reason', 'from', 'to', 'limit', 'cursor'];

/** `coinop admin hst transfers`: the ledger's transfers, newest first (issue 31). */
export const LEDGER_COMMANDS: readonly AdminCommand[] = [
  {
    words: ['hst', 'transfers'],
    description:
      'ledger transfers, newest first, each side with its owner and the amount as exact HST; ' +
      '--cursor for older ones',
    options: [
      { flags: '--player <id|wallet>', description: "only the player's account, either side" },
      { flags: '--account <id>', description: 'only this account id, either side' },
      {
        flags: '--kind <kind>',
        description: 'only this operation: posted, pending, post_pending or void_pending',
      },
      { flags: '--reason <reason>', description: 'only this reason, e.g. mint or play_lock' },
      {
        flags: '--from <time>',
        description: 'at or after this RFC 3339 time, e.g. 2026-11-28T00:00:00Z',
      },
      { flags: '--to <time>', description: 'before this RFC 3339 time' },
      { flags: '--limit <n>', description: 'how many transfers: 1 to 100 (default 50)' },
      { flags: '--cursor <cursor>', description: 'the `nextCursor` of the page before' },
    ],
    request: (v) => {
      const query = new URLSearchParams();
      for (const name of TRANSFER_FILTERS) {
        const value = v[name];
        if (value !== undefined) query.set(name, value);
      }
      const path = '/admin/ledger/transfers';
      return { method: 'GET', path: query.size > 0 ? `${path}?${query}` : path };
    },
  },
];
