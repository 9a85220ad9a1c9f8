import {
  nextRound,
  openPlayAtClose,
  paidPlaces,
  roundBoardName,
  roundPayout,
  type PayoutTable,
  type PoolEntry,
  type RoundPayout,
  type SplitRule,
  type Standing,
  unpromptedPayees,
} from '@coinop/core';
import { AdvisoryLocks } from './advisory-locks.js';
import { notifyGameChanged } from './cache-notices.js';
import { notifyLive } from './live-notices.js';
import { boardOrder } from './board-order.js';
import type { Queryable } from './db.js';
import { applyTransfers, lockAccount } from './ledger.js';
import { PLAY_COLUMNS_OF_P, toPlay, type PlayRow } from './plays.js';
import { openRound } from './tournament-rounds.js';

/** What the close of one round needs beyond the database (docs/concepts/tournaments.md). */
export interface CloseContext {
  readonly now: Date;
  /** The arcade's account: it takes the remainder of the pool's division. */
  readonly arcadeAccountId: string;
  /** How a play's fee is split: the close settles the round's open plays by it. */
  readonly splitRule: SplitRule;
  readonly nextId: () => string;
  /**
   * Runs last inside the close's transaction, before it commits. Only the crash tests use it
   * (to stop a process mid-close); the closer passes nothing otherwise.
   */
  readonly beforeCommit?: ((round: ClosedRound) => Promise<void>) | undefined;
}

/** A round the close has just closed, and what it did. */
export interface ClosedRound {
  readonly roundId: string;
  readonly gameId: string;
  readonly tournamentId: string;
  readonly number: number;
  /** Players who entered the round (made a play on it). */
  readonly entrants: number;
  /** Players with a score on the round's board. */
  readonly rankedPlayers: number;
  readonly poolUnits: bigint;
  /** Places that received a prize (a place whose prize rounds down to 0 is not counted). */
  readonly paidPlaces: number;
  /** Transfers in the payout's linked batch. */
  readonly payoutTransfers: number;
  /** Open plays settled as expired plays (their fee split, the leaders' part into the pool). */
  readonly expiredPlays: number;
  /**
   * Open plays voided, their fee back: only plays locked on chain, which the close cannot settle
   * and a round refuses (`openPlayAtClose`); 0 in practice.
   */
  readonly voidedPlays: number;
  /** The season's next round, opened by this close; null when the tournament ended. */
  readonly next: {
    readonly roundId: string;
    readonly number: number;
    readonly startsAt: Date;
    readonly endsAt: Date;
    readonly guaranteeFunded: boolean;
  } | null;
}

export type CloseOutcome =
  | { readonly closed: true; readonly round: ClosedRound }
  /** Nothing done: another process is closing it, it is closed already, or it is not due yet. */
  | { readonly closed: false; readonly reason: 'busy' | 'already_closed' | 'not_due' | 'missing' };

interface RoundRow {
  id: string;
  tournament_id: string;
  number: number;
  ends_at: Date;
  status: 'open' | 'closed';
  entrants: number;
  guarantee_units: string;
  game_id: string;
  name: string;
  entry_fee_units: string;
  tournament_guarantee_units: string;
  funder_account_id: string;
  payout_table: PayoutTable;
  starts_at: Date;
  duration_seconds: number;
  recurrence: string | null;
  stopped_at: Date | null;
  developer_account_id: string;
  arcade_account_id: string;
}

/**
 * Closes round `roundId` inside `tx` (a transaction), as docs/concepts/tournaments.md
 * ("Closing") states: locks it (skipping it when another process holds its close), settles its
 * open plays as expired plays, reads its final standings and its pool, pays the pool out in one
 * linked batch, records the results, marks it closed, and opens a season's next round or ends
 * the tournament. Lock order: the round, its open plays, its board (the score path locks a play
 * before its board, so the two never wait on each other in a cycle), and only then the accounts
 * the settlement and the payout move, in id order as every ledger write locks them.
 */
export async function closeRound(
  tx: Queryable,
  roundId: string,
  ctx: CloseContext,
): Promise<CloseOutcome> {
  const round = await lockRoundToClose(tx, roundId, ctx.now);
  if (typeof round === 'string') return { closed: false, reason: round };

  await lockOpenPlays(tx, roundId);
  // Plays opened meanwhile hold a key-share lock on the board until they commit: wait for them,
  // then lock those too. A play opened after this waits for the close to commit. Nothing is
  // settled before the board is locked, so no account is locked before it.
  await tx.query(
    'SELECT 1 FROM leaderboards WHERE id = $1 FOR UPDATE',
    [roundId],
    'tournament_close_lock_board',
  );
  // Settled before the pool is read: their leaders' parts are in the pool the close pays.
  const ended = await endOpenPlays(tx, await lockOpenPlays(tx, roundId), round, ctx);

  const table = round.payout_table;
  const { rankedPlayers, standings } = await readFinalStandings(tx, roundId, table);

  const pool = await lockAccount(tx, roundId);
  if (!pool) throw new TypeError(`round ${roundId} has no pool account`);
  const poolUnits = pool.creditsPosted - pool.debitsPosted;
  // With nobody ranked, each entrant's part of the pool goes back to them (finding 3 of the
  // security review: never to the developer, who may void every score).
  const entries = rankedPlayers === 0 ? await readPoolEntries(tx, roundId) : [];
  const payout = roundPayout(
    {
      roundId,
      pool: poolUnits,
      guarantee: BigInt(round.guarantee_units),
      rankedPlayers,
      standings: standings.map((s): Standing => ({
        playerId: s.player_id,
        accountId: s.account_id,
        score: s.score,
      })),
      entries,
      table,
      arcadeAccountId: ctx.arcadeAccountId,
      funderAccountId: round.funder_account_id,
    },
    ctx.nextId,
  );
  await applyTransfers(tx, payout.transfers, ctx.now);
  await recordResults(tx, roundId, payout.results, poolUnits, ctx.now);

  const next = await openNextRound(tx, round, ctx);
  // Every process's game cache drops the closed round's board and learns the next one.
  await notifyGameChanged(tx, round.game_id);
  // Its final standings, each winner's prize or returned entry and each ended play's player (a
  // settled or voided lock) reach their live streams at commit.
  const accounts = [...unpromptedPayees(payout.transfers), ...ended.playerAccountIds];
  await notifyLive(tx, { boards: [roundId], accounts });
  const closed: ClosedRound = {
    roundId,
    gameId: round.game_id,
    tournamentId: round.tournament_id,
    number: round.number,
    entrants: round.entrants,
    rankedPlayers,
    poolUnits,
    paidPlaces: payout.results.length,
    payoutTransfers: payout.transfers.length,
    expiredPlays: ended.expired,
    voidedPlays: ended.voided,
    next,
  };
  await ctx.beforeCommit?.(closed);
  return { closed: true, round: closed };
}

/**
 * Locks round `roundId` for its close: the close's advisory lock, then the round's row. The round,
 * or why there is nothing to close: another process holds its close (`busy`), no such round, it
 * is closed already, or it is not due at `now`.
 */
async function lockRoundToClose(
  tx: Queryable,
  roundId: string,
  now: Date,
): Promise<RoundRow | Extract<CloseOutcome, { closed: false }>['reason']> {
  const [lock] = await tx.query<{ locked: boolean }>(
    'SELECT pg_try_advisory_xact_lock($1::int, hashtext($2::text)) AS locked',
    [AdvisoryLocks.tournamentRoundClose, roundId],
    'tournament_close_try_lock',
  );
  if (!lock?.locked) return 'busy';

  // FOR UPDATE waits for plays being opened on the round, which hold a key-share lock on it.
  const [round] = await tx.query<RoundRow>(
    `SELECT r.id, r.tournament_id, r.number, r.ends_at, r.status, r.entrants,
            r.guarantee_units::text AS guarantee_units,
            t.game_id, t.name, t.entry_fee_units::text AS entry_fee_units,
            t.guarantee_units::text AS tournament_guarantee_units, t.funder_account_id,
            t.payout_table, t.starts_at, t.duration_seconds, t.recurrence, t.stopped_at,
            d.account_id AS developer_account_id, a.account_id AS arcade_account_id
     FROM tournament_rounds r JOIN tournaments t ON t.id = r.tournament_id
       JOIN games g ON g.id = t.game_id JOIN developers d ON d.id = g.developer_id
       JOIN arcades a ON a.id = g.arcade_id
     WHERE r.id = $1 FOR UPDATE OF r`,
    [roundId],
    'tournament_close_lock_round',
  );
  if (!round) return 'missing';
  if (round.status === 'closed') return 'already_closed';
  if (round.ends_at > now) return 'not_due';
  return round;
}

/** The round's ranked players and its final standings, best first, as many as `table` pays. */
async function readFinalStandings(tx: Queryable, roundId: string, table: PayoutTable) {
  const [counted] = await tx.query<{ n: string }>(
    `SELECT coalesce(sum(players), 0)::text AS n FROM rank_buckets
     WHERE leaderboard_id = $1 AND level = 1`,
    [roundId],
    'tournament_close_ranked',
  );
  const rankedPlayers = Number(counted?.n ?? 0);
  const standings = await tx.query<{ player_id: string; account_id: string; score: number }>(
    `SELECT l.player_id, pl.account_id, l.score
     FROM leaders l JOIN players pl ON pl.id = l.player_id
     WHERE l.leaderboard_id = $1
     ORDER BY ${boardOrder('l')} LIMIT $2`,
    [roundId, paidPlaces(table, rankedPlayers)],
    'tournament_close_standings',
  );
  return { rankedPlayers, standings };
}

/**
 * What each entrant paid into the round's pool (the leaders' part of each settled play), by
 * account in id order. Read down the pool's credits (`transfers_by_credit_account`).
 */
async function readPoolEntries(tx: Queryable, roundId: string): Promise<PoolEntry[]> {
  const rows = await tx.query<{ account_id: string; amount: string }>(
    `SELECT pl.account_id, sum(t.amount)::text AS amount
     FROM transfers t JOIN plays p ON p.id = t.play_id JOIN players pl ON pl.id = p.player_id
     WHERE t.credit_account_id = $1 AND t.reason = 'tournament_pool' AND t.kind = 'posted'
     GROUP BY pl.account_id ORDER BY pl.account_id`,
    [roundId],
    'tournament_close_pool_entries',
  );
  return rows.map((r) => ({ accountId: r.account_id, amount: BigInt(r.amount) }));
}

/** Records the round's results (each paid place) and marks it closed with its pool. */
async function recordResults(
  tx: Queryable,
  roundId: string,
  results: RoundPayout['results'],
  poolUnits: bigint,
  now: Date,
): Promise<void> {
  if (results.length > 0) {
    await tx.query(
      `INSERT INTO tournament_results (round_id, place, player_id, score, prize_units, transfer_id)
       SELECT $1, * FROM unnest($2::int[], $3::uuid[], $4::float8[], $5::bigint[], $6::uuid[])`,
      [
        roundId,
        results.map((r) => r.place),
        results.map((r) => r.playerId),
        results.map((r) => r.score),
        results.map((r) => r.prize.toString()),
        results.map((r) => r.transferId),
      ],
      'tournament_close_results',
    );
  }
  await tx.query(
    `UPDATE tournament_rounds SET status = 'closed', pool_units = $2, closed_at = $3 WHERE id = $1`,
    [roundId, poolUnits.toString(), now],
    'tournament_close_mark_closed',
  );
}

type OpenPlayRow = PlayRow & { player_account_id: string };

/** The round's open plays, locked (`FOR UPDATE`), with their players' accounts. */
function lockOpenPlays(tx: Queryable, roundId: string): Promise<OpenPlayRow[]> {
  return tx.query<OpenPlayRow>(
    `SELECT ${PLAY_COLUMNS_OF_P}, pl.account_id AS player_account_id
     FROM plays p JOIN players pl ON pl.id = p.player_id
     WHERE p.leaderboard_id = $1 AND p.status = 'open' ORDER BY p.id FOR UPDATE OF p`,
    [roundId],
    'tournament_close_open_plays',
  );
}

/**
 * Ends the round's open plays in one batch, as `openPlayAtClose` decides: each settled as an
 * expired round play is by the expiry sweep (its fee split, the leaders' part into the round's
 * pool) and marked `expired`; one locked on chain voided. An open play whose time ran out within
 * the round but that the sweep has not settled yet ends the same way, so what a play costs does
 * not depend on when the sweep last ran.
 */
async function endOpenPlays(
  tx: Queryable,
  rows: readonly OpenPlayRow[],
  round: RoundRow,
  ctx: CloseContext,
): Promise<{ expired: number; voided: number; playerAccountIds: string[] }> {
  const closing = {
    roundId: round.id,
    developerAccountId: round.developer_account_id,
    arcadeAccountId: round.arcade_account_id,
  };
  const ended = rows.map((r) => ({
    id: r.id,
    ...openPlayAtClose(toPlay(r), r.player_account_id, closing, ctx.splitRule, ctx.nextId),
  }));
  if (ended.length === 0) return { expired: 0, voided: 0, playerAccountIds: [] };
  await applyTransfers(
    tx,
    ended.flatMap((e) => e.transfers),
    ctx.now,
  );
  await tx.query(
    `UPDATE plays p SET status = e.status, updated_at = $3
     FROM unnest($1::uuid[], $2::text[]) AS e(id, status) WHERE p.id = e.id`,
    [ended.map((e) => e.id), ended.map((e) => e.status), ctx.now],
    'tournament_close_end_plays',
  );
  const expired = ended.filter((e) => e.status === 'expired').length;
  return {
    expired,
    voided: ended.length - expired,
    playerAccountIds: [...new Set(rows.map((r) => r.player_account_id))],
  };
}

/**
 * A season not stopped opens its next round in the close's transaction (funded if its funder
 * can cover the guarantee, else without it); a tournament with no next round is stopped.
 */
async function openNextRound(
  tx: Queryable,
  round: RoundRow,
  ctx: CloseContext,
): Promise<ClosedRound['next']> {
  if (round.stopped_at !== null) return null;
  const window = nextRound(
    {
      startsAt: round.starts_at,
      durationSeconds: round.duration_seconds,
      recurrence: round.recurrence,
    },
    round.ends_at,
    ctx.now,
  );
  if (window === null) {
    await tx.query(
      'UPDATE tournaments SET stopped_at = $2, updated_at = $2 WHERE id = $1',
      [round.tournament_id, ctx.now],
      'tournament_close_stop',
    );
    return null;
  }
  const id = ctx.nextId();
  const number = round.number + 1;
  const { guaranteeFunded } = await openRound(
    tx,
    {
      id,
      tournamentId: round.tournament_id,
      gameId: round.game_id,
      number,
      boardName: roundBoardName(round.name, number),
      entryFeeUnits: BigInt(round.entry_fee_units),
      startsAt: window.startsAt,
      endsAt: window.endsAt,
      guaranteeUnits: BigInt(round.tournament_guarantee_units),
      funderAccountId: round.funder_account_id,
      guaranteeTransferId: ctx.nextId(),
      shortGuarantee: 'open_without',
    },
    ctx.now,
  );
  return { roundId: id, number, ...window, guaranteeFunded };
}

/** Up to `limit` open rounds whose end has come, earliest first: the closer's work. */
export async function dueRounds(q: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM tournament_rounds WHERE status = 'open' AND ends_at <= $1
     ORDER BY ends_at, id LIMIT $2`,
    [now, limit],
    'tournament_due_rounds',
  );
  return rows.map((r) => r.id);
}

/** When the next open round ends, or null when no round is open. */
export async function nextRoundEnd(q: Queryable): Promise<Date | null> {
  const [row] = await q.query<{ ends_at: Date | null }>(
    `SELECT min(ends_at) AS ends_at FROM tournament_rounds WHERE status = 'open'`,
    [],
    'tournament_next_round_end',
  );
  return row?.ends_at ?? null;
}
