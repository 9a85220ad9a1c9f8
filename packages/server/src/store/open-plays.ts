import type { ChargeVerdict } from '@coinop/core';
import { boardOrder } from './board-order.js';
import type { Queryable } from './db.js';
import { translated } from './errors.js';
import { insiderSql } from './testers.js';
import type { StoredPlay } from './plays.js';
import { columns, type Column } from './params.js';

/**
 * Opening plays in as few statements as the rules allow: a batch of paid plays is one
 * statement. The core builds every transfer and decides every rule it can decide from what the
 * caller knows; these statements apply the result, with conditional updates where a rule
 * depends on a balance only Postgres sees under lock. Scores: `score-batch.ts`.
 */

export interface OpenPlayRow {
  /** Null when the player does not exist. */
  readonly playerAccountId: string | null;
  /** The player's profile, when they exist (a paid batch answers it; a free play does not). */
  readonly player?: { readonly name: string; readonly avatarUrl: string | null } | undefined;
  /** Null when nothing was written: see `refusal`, else the player could not spend the cost. */
  readonly leaderPlayerIds: string[] | null;
  /**
   * False when nothing was written because the tier is no longer as the caller knew it: another
   * API process repriced or retired it (or changed its leaders' size) since this one cached it.
   */
  readonly tierCurrent: boolean;
  /** Why the game may not charge the player (nothing was written), or null when it may. */
  readonly refusal: ConsentRefusal | null;
}

/** A consent refusal as the statement found it; `chargeVerdict` in the core states the rule. */
export type ConsentRefusal = Exclude<ChargeVerdict, { ok: true }>;

/** The consent policy a play statement applies: the operator's default and the day it counts. */
export interface ConsentPolicy {
  /** Daily allowance for players who chose none; null is unlimited. */
  readonly defaultAllowanceUnits: bigint | null;
  /** The UTC day (YYYY-MM-DD) spending counts against. */
  readonly day: string;
}

/**
 * The tier as the play was priced: same cost and leaders' size, not retired. Checked in the
 * statement that opens the play, so a tier changed by another API process is never charged at
 * a price (or opened while retired) that only this process's cache still remembers.
 */
function tierAsPriced(board: string, cost: string, leadersMax: string): string {
  return `EXISTS (SELECT 1 FROM leaderboards lb WHERE lb.id = ${board}
            AND lb.cost_units = ${cost} AND lb.leaders_max = ${leadersMax}
            AND lb.retired_at IS NULL)`;
}

/**
 * Consent to the charge, as `chargeVerdict` (core) states it, read in the statement that opens
 * the play: for each row of `input` (columns n, game, player_id, cost, signed), the refusal
 * ('suspended', 'not_tester', 'allowance' or null), the daily limit in force (null: unlimited) and
 * what the player's plays of the game locked on day `day`. `defaultUnits` is the operator's
 * default allowance (bigint, null for unlimited).
 */
function consentOf(input: string, defaultUnits: string, day: string): string {
  return `SELECT i.n, COALESCE(al.daily_units, ${defaultUnits}) AS limit_units,
            CASE WHEN al.day = ${day} THEN al.spent_units ELSE 0 END AS spent_today,
            CASE
              WHEN g.suspended_at IS NOT NULL THEN 'suspended'
              WHEN g.published_at IS NULL AND ${insiderSql('g', 'd', 'pl.wallet')} IS NOT TRUE
                THEN 'not_tester'
              WHEN i.signed OR COALESCE(al.daily_units, ${defaultUnits}) IS NULL THEN NULL
              WHEN (CASE WHEN al.day = ${day} THEN al.spent_units ELSE 0 END) + i.cost
                   <= COALESCE(al.daily_units, ${defaultUnits}) THEN NULL
              ELSE 'allowance'
            END AS refusal
          FROM ${input} i JOIN games g ON g.id = i.game
            JOIN developers d ON d.id = g.developer_id
            LEFT JOIN players pl ON pl.id = i.player_id
            LEFT JOIN allowances al ON al.player_id = i.player_id AND al.game_id = i.game`;
}

function toRefusal(r: {
  refusal: string | null;
  limit_units: string | bigint | null;
  spent_today: string | bigint | null;
}): ConsentRefusal | null {
  switch (r.refusal) {
    case null:
      return null;
    case 'suspended':
    case 'not_tester':
      return { ok: false, reason: r.refusal };
    case 'allowance':
      return {
        ok: false,
        reason: 'allowance',
        limitUnits: BigInt(r.limit_units ?? 0),
        spentTodayUnits: BigInt(r.spent_today ?? 0),
      };
    default:
      throw new TypeError(`unknown consent refusal ${r.refusal}`);
  }
}

/**
 * Opens paid plays in one statement. For each: checks the game may charge the player (consent:
 * see `consentOf`), debits the lock from the player's account only if they can spend it (the
 * `exceeds_credits` rule, checked by Postgres under the row lock), counts it against the player's
 * allowance for the game (a spend that another process's made exceed the limit fails the
 * statement: the `allowance_within_limit` CHECK), creates the play's escrow account, records the
 * lock transfer — the one `lockTransfer()` in the core describes, from the player's account to
 * the escrow whose id is the play id — and inserts the play with a snapshot of the board's
 * leaders; all or nothing. A play refused or whose player cannot spend its cost writes nothing
 * and does not stop the others. The plays must be of distinct players (an account row is
 * updated once per statement). Answers in the order given. Throws IdempotencyKeyTaken when a
 * concurrent request took a play's idempotency key, AllowanceRaced when another spend took the
 * allowance past its limit first.
 */
export function openPaidPlays(
  q: Queryable,
  plays: readonly PaidPlayInput[],
  policy: ConsentPolicy,
): Promise<OpenPlayRow[]> {
  return translated(() => openPaidPlaysStatement(q, plays, policy));
}

/** A row of `OPEN_PAID_PLAYS_SQL`: one play's answer, in the order given (`n`). */
interface PaidPlayRow {
  n: number;
  account_id: string | null;
  player_name: string | null;
  player_avatar_url: string | null;
  leader_player_ids: string[] | null;
  tier_current: boolean;
  refusal: string | null;
  limit_units: string | null;
  spent_today: string | null;
}

/** The statement of `openPaidPlays` (its text is fixed: one prepared statement). */
const OPEN_PAID_PLAYS_SQL = `WITH input AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::uuid[], $5::uuid[],
                            $6::int[], $7::uuid[], $8::uuid[], $9::uuid[], $10::text[],
                            $11::text[], $12::timestamptz[], $13::timestamptz[], $14::boolean[],
                            $17::text[])
         WITH ORDINALITY AS i(play_id, player_id, cost, lock_id, board, leaders_max, arcade,
                              game, developer, idempotency_key, request_hash, expires_at,
                              created_at, signed, seed, n)
     ), tier AS (
       SELECT i.n, ${tierAsPriced('i.board', 'i.cost', 'i.leaders_max')} AS current FROM input i
     ), consent AS (
       ${consentOf('input', '$15::bigint', '$16::date')}
     ), player AS (
       SELECT i.n, pl.account_id, pl.name, pl.avatar_url
       FROM input i JOIN players pl ON pl.id = i.player_id
     ), debit AS (
       UPDATE accounts a SET debits_pending = a.debits_pending + i.cost
       FROM input i JOIN player p ON p.n = i.n JOIN tier t ON t.n = i.n AND t.current
         JOIN consent c ON c.n = i.n AND c.refusal IS NULL
       WHERE a.id = p.account_id
         AND a.credits_posted - a.debits_posted - a.debits_pending >= i.cost
       RETURNING i.n, a.id
     ), spend AS (
       INSERT INTO allowances AS al (player_id, game_id, day, spent_units, limit_units, updated_at)
       SELECT i.player_id, i.game, $16::date, i.cost, c.limit_units, i.created_at
       FROM input i JOIN debit d ON d.n = i.n JOIN consent c ON c.n = i.n
       WHERE NOT i.signed AND c.limit_units IS NOT NULL
       ON CONFLICT (player_id, game_id) DO UPDATE SET
         spent_units = CASE WHEN al.day = EXCLUDED.day THEN al.spent_units ELSE 0 END
                       + EXCLUDED.spent_units,
         day = EXCLUDED.day,
         -- The player's choice as it stands now, should another process have just changed it.
         limit_units = COALESCE(al.daily_units, $15::bigint),
         updated_at = EXCLUDED.updated_at
     ), escrow AS (
       INSERT INTO accounts (id, kind, credits_pending, created_at)
       SELECT i.play_id, 'escrow', i.cost, i.created_at FROM input i JOIN debit d ON d.n = i.n
       RETURNING id
     ), lock AS (
       INSERT INTO transfers (id, kind, debit_account_id, credit_account_id, amount, pending_id,
                              reason, play_id, created_at)
       SELECT i.lock_id, 'pending', d.id, i.play_id, i.cost, NULL, 'play_lock', i.play_id,
              i.created_at
       FROM input i JOIN debit d ON d.n = i.n
       RETURNING id
     ), play AS (
       INSERT INTO plays (id, arcade_id, game_id, developer_id, leaderboard_id, player_id,
                          cost_units, lock_transfer_id, leader_player_ids, status,
                          idempotency_key, request_hash, expires_at, created_at, updated_at, seed,
                          opened_by)
       SELECT i.play_id, i.arcade, i.game, i.developer, i.board, i.player_id, i.cost, i.lock_id,
              ARRAY(SELECT player_id FROM leaders WHERE leaderboard_id = i.board
                    ORDER BY ${boardOrder()} LIMIT i.leaders_max),
              'open', i.idempotency_key, i.request_hash, i.expires_at, i.created_at, i.created_at,
              -- A play its player signed is a client-side play; any other, its game server's.
              i.seed, CASE WHEN i.signed THEN 'player' ELSE 'game_server' END
       FROM input i JOIN debit d ON d.n = i.n
       RETURNING id, leader_player_ids
     )
     SELECT i.n::int AS n, p.account_id, p.name AS player_name, p.avatar_url AS player_avatar_url,
            pl.leader_player_ids, t.current AS tier_current, c.refusal,
            c.limit_units::text AS limit_units, c.spent_today::text AS spent_today
     FROM input i LEFT JOIN player p ON p.n = i.n LEFT JOIN play pl ON pl.id = i.play_id
       JOIN tier t ON t.n = i.n LEFT JOIN consent c ON c.n = i.n
     ORDER BY i.n`;

/** A paid play's columns in the statement's parameter order, up to the policy's two. */
const PAID_PLAY_COLUMNS: readonly Column<PaidPlayInput>[] = [
  (x) => x.play.id,
  (x) => x.play.playerId,
  (x) => x.play.costUnits.toString(),
  (x) => x.play.lockTransferId,
  (x) => x.play.leaderboardId,
  (x) => x.leadersMax,
  (x) => x.play.arcadeId,
  (x) => x.play.gameId,
  (x) => x.play.developerId,
  (x) => x.play.idempotencyKey,
  (x) => x.play.requestHash,
  (x) => x.play.expiresAt,
  (x) => x.play.createdAt,
  (x) => x.signed,
];
/** A paid play's column after the policy's. */
const PAID_PLAY_SEED_COLUMNS: readonly Column<PaidPlayInput>[] = [(x) => x.play.seed];

type PaidPlayInput = { play: StoredPlay; leadersMax: number; signed: boolean };

async function openPaidPlaysStatement(
  q: Queryable,
  plays: readonly PaidPlayInput[],
  policy: ConsentPolicy,
): Promise<OpenPlayRow[]> {
  const rows = await q.query<PaidPlayRow>(
    OPEN_PAID_PLAYS_SQL,
    [
      ...columns(plays, PAID_PLAY_COLUMNS),
      policy.defaultAllowanceUnits?.toString() ?? null,
      policy.day,
      ...columns(plays, PAID_PLAY_SEED_COLUMNS),
    ],
    'play_path_open_paid_batch',
  );
  return rows.map((r) => ({
    playerAccountId: r.account_id ?? null,
    player:
      r.player_name === null ? undefined : { name: r.player_name, avatarUrl: r.player_avatar_url },
    leaderPlayerIds: r.leader_player_ids ?? null,
    tierCurrent: r.tier_current,
    refusal: r.account_id === null ? null : toRefusal(r),
  }));
}

/**
 * Opens a free play (nothing to lock): the play with its leaders snapshot, if the player exists,
 * the tier is as priced and the game may reach the player (not suspended; published, or the
 * player is an insider). No allowance is spent: a free play charges nothing. Throws
 * IdempotencyKeyTaken when a concurrent request took its idempotency key.
 */
export function openFreePlay(
  q: Queryable,
  play: StoredPlay,
  leadersMax: number,
): Promise<OpenPlayRow> {
  return translated(() => openFreePlayStatement(q, play, leadersMax));
}

async function openFreePlayStatement(
  q: Queryable,
  play: StoredPlay,
  leadersMax: number,
): Promise<OpenPlayRow> {
  const rows = await q.query<{
    player_exists: boolean;
    leader_player_ids: string[] | null;
    tier_current: boolean;
    refusal: string | null;
  }>(
    `WITH input AS (
       SELECT $3::uuid AS game, $11::uuid AS player_id, 0::bigint AS cost, true AS signed,
              1 AS n
     ), tier AS (
       SELECT ${tierAsPriced('$5', '0', '$6')} AS current
     ), consent AS (
       ${consentOf('input', 'NULL::bigint', 'NULL::date')}
     ), play AS (
       INSERT INTO plays (id, arcade_id, game_id, developer_id, leaderboard_id, player_id,
                          cost_units, lock_transfer_id, leader_player_ids, status,
                          idempotency_key, request_hash, expires_at, created_at, updated_at, seed,
                          opened_by)
       SELECT $1, $2, $3, $4, $5, p.id, 0, NULL,
              ARRAY(SELECT player_id FROM leaders WHERE leaderboard_id = $5
                    ORDER BY ${boardOrder()} LIMIT $6),
              'open', $7, $8, $9, $10, $10, $12, $13
       FROM players p, tier, consent WHERE p.id = $11 AND tier.current AND consent.refusal IS NULL
       RETURNING leader_player_ids
     )
     SELECT EXISTS (SELECT 1 FROM players WHERE id = $11) AS player_exists,
            (SELECT leader_player_ids FROM play) AS leader_player_ids,
            (SELECT current FROM tier) AS tier_current,
            (SELECT refusal FROM consent) AS refusal`,
    [
      play.id,
      play.arcadeId,
      play.gameId,
      play.developerId,
      play.leaderboardId,
      leadersMax,
      play.idempotencyKey,
      play.requestHash,
      play.expiresAt,
      play.createdAt,
      play.playerId,
      play.seed,
      play.openedBy,
    ],
    'play_path_open_free',
  );
  const row = rows[0];
  const exists = row?.player_exists ?? false;
  return {
    playerAccountId: exists ? play.playerId : null,
    leaderPlayerIds: row?.leader_player_ids ?? null,
    tierCurrent: row?.tier_current ?? false,
    refusal: exists && row ? toRefusal({ ...row, limit_units: null, spent_today: null }) : null,
  };
}
