// One board with many players' bests, loaded with set-based SQL: the bench's big board
// (ranking.mjs, board-reads.mjs). It needs only a migrated database and a leaderboard id, so a
// test (test/store/board-bulk-load.test.ts) proves it against the store's own reads at a small size.

const LOAD_CHUNK = 100_000;

/**
 * Players (with their accounts) and their bests in chunks, then the count tree in one
 * aggregate per level. rank_key is the IEEE 754 bits of the (non-negative) score, as rankKey()
 * computes for NORMAL; each level's bucket is the key's top 8·level bits, as bucketAt() does.
 * Scores are whole game points below `scoresBelow` (ten million: most bests distinct, some
 * tied), or with `sequential` the scores 1 … rows (all distinct: player n has score n); bests are
 * reached one millisecond apart from `now`, so ties rank by who reached them first. `vacuum`
 * (for a measurement) analyses the fresh tables afterwards.
 */
export async function bulkLoad(
  db,
  board,
  rows,
  {
    log = () => {},
    scoresBelow = 10_000_000,
    sequential = false,
    now = new Date(),
    names = 'player',
    vacuum = true,
  } = {},
) {
  const score = sequential ? 'g::float8' : 'floor(random() * $3::int)::float8';
  for (let lo = 1; lo <= rows; lo += LOAD_CHUNK) {
    const hi = Math.min(rows, lo + LOAD_CHUNK - 1);
    await db.transaction(async (tx) => {
      await tx.query(
        `CREATE TEMP TABLE bench_seed ON COMMIT DROP AS
         SELECT g, gen_random_uuid() AS player_id, gen_random_uuid() AS account_id,
                ${score} AS score
         FROM generate_series($1::int, $2::int) AS g`,
        sequential ? [lo, hi] : [lo, hi, scoresBelow],
      );
      await tx.query(
        `INSERT INTO accounts (id, kind, created_at)
         SELECT account_id, 'player', $1 FROM bench_seed`,
        [now],
      );
      await tx.query(
        `INSERT INTO players (id, wallet, name, avatar_url, account_id, created_at)
         SELECT player_id, NULL, $2::text || ' ' || g, NULL, account_id, $1 FROM bench_seed`,
        [now, names],
      );
      await tx.query(
        `INSERT INTO leaders (leaderboard_id, player_id, score, rank_key, score_id, achieved_at)
         SELECT $1, player_id, score, ('x' || encode(float8send(score), 'hex'))::bit(64)::bigint,
                gen_random_uuid(), $2::timestamptz + g * interval '1 millisecond'
         FROM bench_seed`,
        [board, now],
      );
    });
    log(`  ${hi.toLocaleString('en')} / ${rows.toLocaleString('en')} bests`);
  }
  for (let level = 1; level <= 8; level++) {
    await db.query(
      `INSERT INTO rank_buckets (leaderboard_id, level, bucket, players)
       SELECT $1, $2::smallint, rank_key >> (64 - 8 * $2::int), count(*)
       FROM leaders WHERE leaderboard_id = $1
       GROUP BY rank_key >> (64 - 8 * $2::int)`,
      [board, level],
    );
  }
  log('  rank buckets: 8 levels');
  if (!vacuum) return;
  // VACUUM too, so autovacuum does not wake up on the fresh rows mid-measurement.
  for (const table of ['accounts', 'players', 'leaders', 'rank_buckets']) {
    await db.query(`VACUUM ANALYZE ${table}`);
  }
}
