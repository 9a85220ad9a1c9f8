import type { Queryable } from './db.js';
import type { GameState } from './admin.js';

/**
 * Developers' requests to list their games in the catalog (issue 17). The partial unique index
 * `publish_requests_one_pending` keeps one pending request per game; every decision is a
 * conditional update on `state = 'pending'`, so two deciders race to one winner.
 */

export const PublishRequestStates = ['pending', 'approved', 'declined', 'withdrawn'] as const;
export type PublishRequestState = (typeof PublishRequestStates)[number];

export interface PublishRequestRecord {
  readonly id: string;
  readonly gameId: string;
  readonly gameName: string;
  readonly state: PublishRequestState;
  /** What the developer told the operator; empty when nothing. */
  readonly note: string;
  /** The operator's reason; null unless declined. */
  readonly declineReason: string | null;
  readonly requestedAt: Date;
  readonly decidedAt: Date | null;
}

/** A request as the operator's queue shows it: with what the operator needs to decide. */
export interface QueuedPublishRequest extends PublishRequestRecord {
  readonly game: {
    readonly tagLine: string;
    readonly description: string;
    readonly category: string;
    readonly url: string;
    readonly coverUrl: string;
    readonly developerId: string;
    readonly developerWallet: string;
    readonly state: GameState;
    readonly tiers: number;
  };
}

interface RequestRow {
  id: string;
  game_id: string;
  game_name: string;
  state: PublishRequestState;
  note: string;
  decline_reason: string | null;
  requested_at: Date;
  decided_at: Date | null;
}

interface QueuedRow extends RequestRow {
  tag_line: string;
  description: string;
  category: string;
  url: string;
  cover_url: string;
  developer_id: string;
  developer_wallet: string;
  published_at: Date | null;
  suspended_at: Date | null;
  tiers: number;
}

const REQUEST_SELECT = `SELECT r.id, r.game_id, g.name AS game_name, r.state, r.note,
    r.decline_reason, r.requested_at, r.decided_at
  FROM publish_requests r JOIN games g ON g.id = r.game_id`;

const QUEUED_SELECT = `SELECT r.id, r.game_id, g.name AS game_name, r.state, r.note,
    r.decline_reason, r.requested_at, r.decided_at, g.tag_line, g.description, g.category, g.url,
    g.cover_url, g.developer_id, d.wallet AS developer_wallet, g.published_at, g.suspended_at,
    (SELECT count(*)::int FROM leaderboards l
     WHERE l.game_id = g.id AND l.retired_at IS NULL AND l.tournament_id IS NULL)
      AS tiers
  FROM publish_requests r JOIN games g ON g.id = r.game_id
    JOIN developers d ON d.id = g.developer_id`;

const toRequest = (r: RequestRow): PublishRequestRecord => ({
  id: r.id,
  gameId: r.game_id,
  gameName: r.game_name,
  state: r.state,
  note: r.note,
  declineReason: r.decline_reason,
  requestedAt: r.requested_at,
  decidedAt: r.decided_at,
});

const toQueued = (r: QueuedRow): QueuedPublishRequest => ({
  ...toRequest(r),
  game: {
    tagLine: r.tag_line,
    description: r.description,
    category: r.category,
    url: r.url,
    coverUrl: r.cover_url,
    developerId: r.developer_id,
    developerWallet: r.developer_wallet,
    state:
      r.suspended_at !== null ? 'suspended' : r.published_at !== null ? 'published' : 'unpublished',
    tiers: r.tiers,
  },
});

/**
 * Opens a pending request for the game; null when one is already pending (the unique index
 * let this one in only if none was), so the caller answers with that one.
 */
export async function insertPublishRequest(
  q: Queryable,
  input: { id: string; gameId: string; note: string; now: Date },
): Promise<PublishRequestRecord | null> {
  const rows = await q.query<{ id: string }>(
    `INSERT INTO publish_requests (id, game_id, state, note, requested_at)
     VALUES ($1, $2, 'pending', $3, $4)
     ON CONFLICT (game_id) WHERE state = 'pending' DO NOTHING RETURNING id`,
    [input.id, input.gameId, input.note, input.now],
  );
  if (rows.length === 0) return null;
  return findPublishRequest(q, input.id);
}

export async function findPublishRequest(
  q: Queryable,
  id: string,
): Promise<PublishRequestRecord | null> {
  const rows = await q.query<RequestRow>(`${REQUEST_SELECT} WHERE r.id = $1`, [id]);
  return rows[0] ? toRequest(rows[0]) : null;
}

export async function findQueuedPublishRequest(
  q: Queryable,
  id: string,
): Promise<QueuedPublishRequest | null> {
  const rows = await q.query<QueuedRow>(`${QUEUED_SELECT} WHERE r.id = $1`, [id]);
  return rows[0] ? toQueued(rows[0]) : null;
}

/** The game's requests, newest first (at most `limit`). */
export async function publishRequestsOfGame(
  q: Queryable,
  gameId: string,
  limit: number,
): Promise<PublishRequestRecord[]> {
  const rows = await q.query<RequestRow>(
    `${REQUEST_SELECT} WHERE r.game_id = $1 ORDER BY r.requested_at DESC, r.id DESC LIMIT $2`,
    [gameId, limit],
  );
  return rows.map(toRequest);
}

/**
 * Requests in `state` (every state when null), oldest first as a queue is served, after `after`
 * (the last request of the page before) when given.
 */
export async function listPublishRequests(
  q: Queryable,
  page: { state: PublishRequestState | null; limit: number; after?: string | undefined },
): Promise<QueuedPublishRequest[]> {
  const rows = await q.query<QueuedRow>(
    `${QUEUED_SELECT}
     WHERE ($1::text IS NULL OR r.state = $1)
       AND ($2::uuid IS NULL OR (r.requested_at, r.id) >
             (SELECT requested_at, id FROM publish_requests WHERE id = $2))
     ORDER BY r.requested_at, r.id
     LIMIT $3`,
    [page.state, page.after ?? null, page.limit],
  );
  return rows.map(toQueued);
}

/**
 * Moves a pending request to `state`; null when it was not pending (or does not exist). The row
 * lock of the update makes a concurrent decider wait, then find it no longer pending.
 */
export async function decidePublishRequest(
  q: Queryable,
  input: {
    id: string;
    state: Exclude<PublishRequestState, 'pending'>;
    declineReason: string | null;
    now: Date;
  },
): Promise<{ gameId: string } | null> {
  const rows = await q.query<{ game_id: string }>(
    `UPDATE publish_requests SET state = $2, decline_reason = $3, decided_at = $4
     WHERE id = $1 AND state = 'pending' RETURNING game_id`,
    [input.id, input.state, input.declineReason, input.now],
  );
  return rows[0] ? { gameId: rows[0].game_id } : null;
}

/** Approves the game's pending request, if any: the operator published the game directly. */
export async function approvePendingRequestOfGame(
  q: Queryable,
  gameId: string,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE publish_requests SET state = 'approved', decided_at = $2
     WHERE game_id = $1 AND state = 'pending'`,
    [gameId, now],
  );
}
