import type { ScoreDisplay } from './rank-key.js';

/**
 * The outlier rule of the review queue (issue 30, docs/reference/review-queue.md): a best that
 * entered its board's leaders is flagged for review when it stands out against the other
 * players' bests. Robust statistics, so one earlier cheat on the board does not hide the next:
 * the median and the median absolute deviation (MAD), not the mean and the standard deviation.
 */

/** Fewer other players than this and a board has no history to stand out against. */
export const OUTLIER_MIN_PLAYERS = 20;
/**
 * How many scaled MADs beyond the median a score may be before it is flagged. A normal
 * distribution puts one score in about two million beyond 5; a board's honest leaders sit
 * at 2 to 4 on the skewed boards games make, so 6 leaves them alone.
 */
export const OUTLIER_MAD_LIMIT = 6;
/** The MAD of a normal distribution is this fraction of its standard deviation (1 / 1.4826). */
const MAD_TO_SIGMA = 1.4826;
/** Better than the board's best so far by this factor (twice as high, or half the time). */
export const OUTLIER_BEST_FACTOR = 2;

/** The other players' bests on the board, as the check reads them. */
export interface BoardHistory {
  /** How many other players have a best on the board. */
  readonly players: number;
  /** The median of their bests; null when none. */
  readonly median: number | null;
  /** The median of the bests' absolute distances from that median; null when none. */
  readonly mad: number | null;
  /** The best of their bests (the board's best before this player's); null when none. */
  readonly previousBest: number | null;
}

/** Why a score was flagged, with every number the rule used: the review's evidence. */
export interface OutlierEvidence {
  readonly rule: 'mad' | 'best_factor';
  readonly score: number;
  readonly n: number;
  readonly median: number;
  readonly mad: number;
  /** How many scaled MADs beyond the median the score is; null when the MAD is 0. */
  readonly robustZ: number | null;
  readonly madLimit: number;
  readonly previousBest: number | null;
  readonly bestFactor: number;
}

/**
 * Whether `score` stands out against `history` in the board's better direction (NORMAL: higher,
 * REVERSE: lower): null when it does not, else the evidence. Flagged when the board has at
 * least OUTLIER_MIN_PLAYERS other players and the score is either more than OUTLIER_MAD_LIMIT
 * scaled MADs better than their median, or OUTLIER_BEST_FACTOR times better than their best.
 */
export function findOutlier(
  score: number,
  history: BoardHistory,
  display: ScoreDisplay,
): OutlierEvidence | null {
  const { players: n, median, mad, previousBest } = history;
  if (n < OUTLIER_MIN_PLAYERS || median === null || mad === null) return null;
  const beyondMedian = display === 'REVERSE' ? median - score : score - median;
  const robustZ = mad > 0 ? beyondMedian / (MAD_TO_SIGMA * mad) : null;
  const evidence = {
    score,
    n,
    median,
    mad,
    robustZ,
    madLimit: OUTLIER_MAD_LIMIT,
    previousBest,
    bestFactor: OUTLIER_BEST_FACTOR,
  };
  if (robustZ !== null && robustZ > OUTLIER_MAD_LIMIT) return { rule: 'mad', ...evidence };
  if (previousBest !== null && beatsByFactor(score, previousBest, display)) {
    return { rule: 'best_factor', ...evidence };
  }
  return null;
}

function beatsByFactor(score: number, best: number, display: ScoreDisplay): boolean {
  if (display === 'REVERSE') return score * OUTLIER_BEST_FACTOR <= best && score < best;
  return best > 0 && score >= best * OUTLIER_BEST_FACTOR;
}
