// Diagnosis: EXPLAIN ANALYZE of the board page and around-me statements, exactly as the store
// sends them, on a fresh big board. `node bench/explain-board-reads.mjs <players> <store>
// [movers]` (store: postgres, with DATABASE_URL or the throwaway cluster; or pglite). With
// movers, the middle page is of a walk begun before that many players' bests moved (each move
// recorded as a score batch records it, the bests left in place: a plan, not the ranks).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boardAround, boardPage } from '../dist/store/board-pages.js';
import { migrate } from '../dist/store/migrate.js';
import { openPglite } from '../dist/store/pglite.js';
import { openPostgres } from '../dist/store/postgres.js';
import { createDatabase, startPostgres } from './postgres.mjs';
import { loadBigBoard } from './ranking.mjs';

const players = Number(process.argv[2] ?? 200_000);
const store = process.argv[3] ?? 'postgres';
const movers = Number(process.argv[4] ?? 0);
const log = (line) => console.error(line);

let db;
let done;
if (store === 'postgres') {
  const postgres = await startPostgres();
  const database = await createDatabase(postgres.adminUrl, 'coinop_explain');
  db = await openPostgres(database.url, 2);
  done = async () => {
    await db.close();
    await database.drop();
    await postgres.stop();
  };
} else {
  const dir = await mkdtemp(join(tmpdir(), 'coinop-explain-'));
  db = await openPglite(dir);
  done = async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  };
}
try {
  await migrate(db);
  const { board } = await loadBigBoard(db, players, log);
  const [mid] = await db.query(
    `SELECT player_id, rank_key::text AS k,
            (extract(epoch FROM achieved_at) * 1000000)::bigint::text AS micros
     FROM leaders WHERE leaderboard_id = $1
     ORDER BY rank_key DESC, achieved_at, player_id OFFSET $2 LIMIT 1`,
    [board, Math.floor(players / 2)],
  );
  const position = {
    rankKey: BigInt(mid.k),
    achievedAtMicros: BigInt(mid.micros),
    playerId: mid.player_id,
  };
  if (movers > 0) {
    await db.query(
      `WITH moved AS (
         SELECT player_id, rank_key, achieved_at, row_number() OVER () AS seq FROM (
           SELECT player_id, rank_key, achieved_at FROM leaders WHERE leaderboard_id = $1
           ORDER BY md5(player_id::text) LIMIT $2) m),
       stamped AS (
         UPDATE leaders l SET seq = m.seq FROM moved m
         WHERE l.leaderboard_id = $1 AND l.player_id = m.player_id RETURNING 1)
       INSERT INTO best_moves (leaderboard_id, seq, player_id, from_rank_key, from_achieved_at,
                               moved_at)
       SELECT $1, seq, player_id, rank_key, achieved_at, now() FROM moved`,
      [board, movers],
    );
    await db.query('UPDATE leaderboards SET write_seq = $2 WHERE id = $1', [board, movers]);
    await db.query('ANALYZE leaders');
    await db.query('ANALYZE best_moves');
    log(`${movers} movers since the walk began`);
  }
  const reads = {
    // The loaded board has had no score batch: a walk begun on it is as of write_seq 0.
    'page of 100 (middle)': (q) => boardPage(q, board, { s0: 0n, position }, 100),
    'around-me 50 (middle)': (q) => boardAround(q, board, mid.player_id, 50),
  };
  for (const [label, read] of Object.entries(reads)) {
    let sent = null;
    const capture = {
      query: (sql, params, name) => ((sent = { sql, params }), db.query(sql, params, name)),
    };
    for (let i = 0; i < 10; i++) await read(capture);
    const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sent.sql}`, sent.params);
    console.log(`### ${label}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}\n`);
  }
} finally {
  await done();
}
