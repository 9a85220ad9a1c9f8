/** How scores compare on a board: NORMAL ranks higher scores first, REVERSE lower first. */
export const ScoreDisplays = ['NORMAL', 'REVERSE'] as const;
export type ScoreDisplay = (typeof ScoreDisplays)[number];

/** The largest key; keys are non-negative signed 64-bit integers so Postgres `bigint` holds them. */
const MAX_KEY = (1n << 63n) - 1n;

/**
 * Maps a score to a 63-bit integer whose larger values rank better, for either display. The IEEE
 * 754 bits of a non-negative double already sort like the number, so the key is those bits for
 * NORMAL and their complement for REVERSE. Ranking then needs integer comparisons only.
 */
export function rankKey(score: number, display: ScoreDisplay): bigint {
  if (!Number.isFinite(score) || score < 0) {
    throw new TypeError(`score must be a finite non-negative number, got ${score}`);
  }
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, score === 0 ? 0 : score); // Folds -0 into +0.
  const bits = view.getBigUint64(0);
  return display === 'NORMAL' ? bits : MAX_KEY - bits;
}

/** Digits per key for the rank count tree: 8 levels of 8 bits cover the 64-bit key. */
export const RANK_TREE_LEVELS = 8;
const BITS_PER_LEVEL = 8n;

/**
 * The bucket of `key` at `level` (1..8): the key's top 8·level bits. The store keeps, per board,
 * how many players' best keys fall in each bucket, so the number of keys at or above a given key is
 * a sum over at most 255 sibling buckets per level: O(log n) in the players on the board.
 */
export function bucketAt(key: bigint, level: number): bigint {
  if (!Number.isInteger(level) || level < 1 || level > RANK_TREE_LEVELS) {
    throw new TypeError(`level must be 1..${RANK_TREE_LEVELS}, got ${level}`);
  }
  return key >> (64n - BITS_PER_LEVEL * BigInt(level));
}

/** The buckets a key is counted in, one per level, from the top level down. */
export function bucketPath(key: bigint): bigint[] {
  const path: bigint[] = [];
  for (let level = 1; level <= RANK_TREE_LEVELS; level++) path.push(bucketAt(key, level));
  return path;
}

/**
 * For counting the players whose best key is at or above `key`: per level, the range of buckets
 * `(after, upTo]` to sum. Levels 1–7 take the sibling buckets above the key's own bucket within the
 * same parent; level 8 (whole keys) takes the key's own bucket too, so equal keys are counted.
 */
export function rangesAtOrAbove(
  key: bigint,
): Array<{ level: number; after: bigint; upTo: bigint }> {
  const ranges: Array<{ level: number; after: bigint; upTo: bigint }> = [];
  for (let level = 1; level <= RANK_TREE_LEVELS; level++) {
    const bucket = bucketAt(key, level);
    const lastSibling = bucket | 0xffn;
    const after = level === RANK_TREE_LEVELS ? bucket - 1n : bucket;
    if (after < lastSibling) ranges.push({ level, after, upTo: lastSibling });
  }
  return ranges;
}
