import { latestVerifierVersion, verifierSource } from '../store/game-verifiers.js';
import { findPlay } from '../store/plays.js';
import type { QueueItem } from '../store/review-queue.js';
import type { VerifyRefusal } from '../verifier/index.js';
import type { ArcadeServices } from './arcade-services.js';

/** What the game's current verifier makes of a queue item's replay, re-run by a reviewer. */
export interface ReviewVerdictRecord {
  readonly reviewId: string;
  readonly verdict: 'reproduced' | VerifyRefusal;
  readonly detail: string;
  readonly computed: number | null;
  readonly verifierVersion: number | null;
  readonly checkedAt: Date;
}

/**
 * Re-runs the game's current verifier on the item's replay with its play's seed and its score,
 * in the score path's sandbox and limits (docs/reference/review-queue.md#replays). Writes nothing:
 * a verifier fixed or uploaded since the score arrived may judge it differently, which is what
 * the reviewer wants to know.
 */
export async function rerunVerifier(
  arcade: ArcadeServices,
  item: QueueItem,
  replay: string,
): Promise<ReviewVerdictRecord> {
  const { db, clock } = arcade;
  const none = (detail: string): ReviewVerdictRecord => ({
    reviewId: item.id,
    verdict: 'no_verifier',
    detail,
    computed: null,
    verifierVersion: null,
    checkedAt: clock.now(),
  });
  const play = await findPlay(db, item.gameId, item.playId);
  if (play === null || play.seed === null)
    return none('the play was opened before plays had seeds');
  const latest = await latestVerifierVersion(db, item.gameId);
  if (latest === null || latest.removedAt !== null) return none('the game has no replay verifier');
  const source = await verifierSource(db, item.gameId, latest.version);
  if (source === null) return none('the game has no replay verifier');
  const outcome = await arcade.verifiers.check(
    source,
    { seed: play.seed, replay, score: item.score, leaderboardId: item.leaderboardId },
    item.gameId,
  );
  return {
    reviewId: item.id,
    verdict: outcome.ok ? 'reproduced' : outcome.reason,
    detail: outcome.ok ? `the replay earns ${item.score}, as claimed` : outcome.detail,
    computed: outcome.computed ?? null,
    verifierVersion: latest.version,
    checkedAt: clock.now(),
  };
}
