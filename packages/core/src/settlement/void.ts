import { compareRanked, type RankedEntry } from '../leaderboards/best.js';
import type { TransferRequest } from '../ledger/types.js';
import type { Play } from '../model.js';
import { payoutTransfer } from './hold.js';
import { splitCost, type SplitRule } from './split.js';

/**
 * Voiding a score (docs/concepts/plays-and-settlement.md#hold-and-void): who leads a board once
 * the voided scores are taken out, and how a play whose payouts are still held is re-settled to
 * them. Pure: the service reads the board's scores and the held transfers, the store applies.
 */

/** One accepted, non-voided score on a board, as the void's re-ranking reads it. */
export interface BoardScore extends RankedEntry {
  readonly scoreId: string;
}

/**
 * The leaders of a board as it stood at `at`: each player's best of `scores` achieved strictly
 * before `at` (ties to the earlier score), best first by the board's order, the first
 * `leadersMax`. On a board without voids this is the snapshot a play opened at `at` recorded.
 */
export function leadersAt(
  scores: readonly BoardScore[],
  at: Date,
  leadersMax: number,
): BoardScore[] {
  const best = new Map<string, BoardScore>();
  for (const s of scores) {
    if (s.achievedAt.getTime() >= at.getTime()) continue;
    const current = best.get(s.playerId);
    if (current === undefined || compareRanked(s, current) < 0) best.set(s.playerId, s);
  }
  return [...best.values()].sort(compareRanked).slice(0, leadersMax);
}

/** A player's best of `scores` (any time), or null when none is left. */
export function bestOf(scores: readonly BoardScore[], playerId: string): BoardScore | null {
  let best: BoardScore | null = null;
  for (const s of scores) {
    if (s.playerId !== playerId) continue;
    if (best === null || compareRanked(s, best) < 0) best = s;
  }
  return best;
}

/** A held payout of a play: a pending transfer from its escrow, neither posted nor voided. */
export interface HeldPayout {
  readonly id: string;
  readonly creditAccountId: string;
  readonly amount: bigint;
  readonly reason: TransferRequest['reason'];
}

/** What re-settling one held play needs. */
export interface HeldPlay {
  readonly play: Pick<Play, 'id' | 'costUnits'>;
  readonly held: readonly HeldPayout[];
  /** Accounts of the corrected leaders (`leadersAt` without the voided scores), best first. */
  readonly leaderAccountIds: readonly string[];
  /** The play's player: the leaders' part comes back to them when no leader is left. */
  readonly playerAccountId: string;
  readonly developerAccountId: string;
  readonly arcadeAccountId: string;
}

/**
 * The transfers that re-settle a held play as if the voided scores had never been made: each
 * held payout voided, then a new held payout per share of the split among the corrected leaders.
 * Empty when the split to the corrected leaders is the one held (nothing to change). Throws
 * TypeError if the held payouts do not sum to the play's cost (a play not settled with a hold).
 */
export function resettleHeldPlay(
  input: HeldPlay,
  rule: SplitRule,
  nextId: () => string,
): TransferRequest[] {
  const { play, held } = input;
  const heldSum = held.reduce((sum, t) => sum + t.amount, 0n);
  if (heldSum !== play.costUnits)
    throw new TypeError(`play ${play.id} holds ${heldSum} of its cost ${play.costUnits}`);
  const shares = splitCost(play.costUnits, input.leaderAccountIds, input, rule);
  const key = (accountId: string, amount: bigint, reason: string) =>
    `${accountId}:${amount}:${reason}`;
  const before = held.map((t) => key(t.creditAccountId, t.amount, t.reason)).sort();
  const after = shares
    .map((s) => payoutTransfer(play.id, s, '', true))
    .map((t) => key(t.creditAccountId, t.amount, t.reason))
    .sort();
  if (before.join() === after.join()) return [];
  const voids: TransferRequest[] = held.map((t) => ({
    id: nextId(),
    kind: 'void_pending',
    debitAccountId: play.id,
    creditAccountId: t.creditAccountId,
    amount: 0n,
    pendingId: t.id,
    reason: 'payout_void',
    playId: play.id,
  }));
  return [...voids, ...shares.map((s) => payoutTransfer(play.id, s, nextId(), true))];
}
