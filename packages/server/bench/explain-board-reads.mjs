// Diagnosis: EXPLAIN ANALYZE of the board page and around-me statements, exactly as the store
// sends them, on a fresh big board. `node bench/explain-board-reads.mjs <players> <store>`
// (store: postgres, with DATABASE_URL or the throwaway cluster; or pglite).
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
  const reads = {
    // The loaded board has had no score batch: a walk of it is as of write_seq 0.
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
