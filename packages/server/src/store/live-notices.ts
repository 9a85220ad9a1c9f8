import type { Queryable } from './db.js';

/**
 * The channel on which a change someone may be watching live is announced: boards whose leaders
 * moved and ledger accounts whose balance moved. Every API process LISTENs to it (`LiveHub`) and
 * tells the streams that follow them (docs/concepts/live-updates.md). A notice carries ids only:
 * what a stream shows is read afresh, for who may see it.
 */
export const LIVE_CHANNEL = 'coinop_live';

/** What changed: boards (leaderboard ids) and accounts (ledger account ids). */
export interface LiveNotice {
  readonly boards: readonly string[];
  readonly accounts: readonly string[];
}

/**
 * Postgres refuses a NOTIFY payload of 8000 bytes or more: ids go in notices of at most this
 * many characters, each one whole.
 */
const PAYLOAD_MAX_CHARS = 7000;

/**
 * The payloads that announce the notice, as few as fit: `b:<id>,<id>;a:<id>,<id>`. An empty
 * notice has none.
 */
export function liveNoticePayloads(notice: LiveNotice): string[] {
  const payloads: string[] = [];
  let boards: string[] = [];
  let accounts: string[] = [];
  let size = 0;
  const flush = () => {
    if (boards.length + accounts.length > 0)
      payloads.push(`b:${boards.join(',')};a:${accounts.join(',')}`);
    boards = [];
    accounts = [];
    size = 0;
  };
  const add = (list: 'b' | 'a', id: string) => {
    if (size + id.length + 1 > PAYLOAD_MAX_CHARS) flush();
    (list === 'b' ? boards : accounts).push(id);
    size += id.length + 1;
  };
  for (const id of new Set(notice.boards)) add('b', id);
  for (const id of new Set(notice.accounts)) add('a', id);
  flush();
  return payloads;
}

/**
 * Announces the notice. In a transaction, Postgres delivers it when the transaction commits, so a
 * change rolled back announces nothing and no stream reads before the change is visible.
 */
export async function notifyLive(q: Queryable, notice: LiveNotice): Promise<void> {
  for (const payload of liveNoticePayloads(notice)) {
    await q.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, payload]);
  }
}

/**
 * The ledger account of the player whose wallet is the game's developer, if they ever signed in:
 * whose stream hears of a decision on the game's publish request.
 */
export async function developerPlayerAccountOf(
  q: Queryable,
  gameId: string,
): Promise<string | null> {
  const rows = await q.query<{ account_id: string }>(
    `SELECT pl.account_id FROM games g
       JOIN developers d ON d.id = g.developer_id
       JOIN players pl ON pl.wallet = d.wallet
     WHERE g.id = $1`,
    [gameId],
    'live_developer_account',
  );
  return rows[0]?.account_id ?? null;
}

/** The notice a payload on `LIVE_CHANNEL` carries; null for one this code cannot read. */
export function parseLiveNotice(payload: string): LiveNotice | null {
  const match = /^b:([^;]*);a:(.*)$/.exec(payload);
  if (match === null) return null;
  const ids = (text: string | undefined) => (text ? text.split(',').filter((id) => id !== '') : []);
  return { boards: ids(match[1]), accounts: ids(match[2]) };
}
