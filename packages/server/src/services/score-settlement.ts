import {
  createTransfers,
  effectivePayoutHoldSeconds,
  leaderPartAccountIds,
  payoutsReleaseAt,
  poolAccountOf,
  settlementSnapshot,
  settlementTransfers,
  type GameRef,
  type Leaderboard,
  type Play,
} from '@coinop/core';
import type { ScoringPlay } from '../store/score-batch.js';
import type { PlayPolicy } from './play-requests.js';

/**
 * The ledger transfers that settle a scored play's escrow by the split rule, decided. A round's
 * play pays the leaders' part into the round's pool account (its id) instead. With a payout
 * hold the shares are pending until `releaseAt` (null: paid at once; hold-and-void in
 * docs/concepts/plays-and-settlement.md).
 */
export function decideSettlement(
  scored: {
    readonly play: Play;
    readonly locked: ScoringPlay;
    readonly game: GameRef;
    readonly board: Leaderboard;
    readonly now: Date;
  },
  policy: Pick<PlayPolicy, 'splitRule' | 'payoutHoldSeconds'>,
  nextId: () => string,
) {
  const { play, locked, game, board, now } = scored;
  const poolAccountId = poolAccountOf(board);
  const holdSeconds = effectivePayoutHoldSeconds(game, board, policy.payoutHoldSeconds);
  const releaseAt = payoutsReleaseAt(play, poolAccountId, holdSeconds, now);
  const transfers = settlementTransfers(
    play,
    locked.leaderAccountIds,
    locked.playerAccountId,
    game,
    policy.splitRule,
    nextId,
    poolAccountId,
    releaseAt !== null,
  );
  const outcome = createTransfers(
    transfers,
    settlementSnapshot(
      [{ play, playerAccountId: locked.playerAccountId }],
      // The player too: with no leaders, the leaders' part comes back to them.
      [
        ...leaderPartAccountIds(locked.leaderAccountIds, poolAccountId),
        locked.playerAccountId,
        game.developerAccountId,
        game.arcadeAccountId,
      ],
    ),
  );
  if (!outcome.ok)
    throw new TypeError(`settlement of play ${play.id}: ${outcome.results.join(', ')}`);
  return { outcome, releaseAt };
}
