// Diagnosis: runs a batch of plays, then their scores, through the compiled PlayService on an
// existing bench database (one that hot-path.mjs seeded) and prints EXPLAIN (ANALYZE, BUFFERS,
// WAL) of each play_path_* statement, as a custom plan and as the generic plan a prepared
// statement switches to. Each EXPLAIN runs in a savepoint that is rolled back; then the real
// statement runs.
//   node packages/server/bench/explain-hot-path.mjs postgres://…/coinop_prof [batch size]
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import utils from 'pg/lib/utils.js';
import { buildApi } from '../dist/app.js';
import { SecretBox } from '../dist/credentials/secret-box.js';
import { testConfig } from '../dist/config.js';
import { systemClock, uuidIds } from '../dist/ids.js';
import { openPostgres } from '../dist/store/postgres.js';

const { prepareValue } = utils;
const [url] = process.argv.slice(2);
const raw = await openPostgres(url, 2);
let n = 0;
async function explain(q, sql, params, name) {
  for (const mode of ['force_custom_plan', 'force_generic_plan']) {
    const stmt = `x${++n}`;
    await q.query('SAVEPOINT ex');
    await q.query(`SET LOCAL plan_cache_mode = ${mode}`);
    await q.query({ text: `PREPARE ${stmt} AS ${sql}` }.text);
    // Utility statements take no bind parameters: inline them as literals.
    const args = params
      .map((v) => (v === null ? 'NULL' : pg.escapeLiteral(String(prepareValue(v)))))
      .join(', ');
    const rows = await q.query(
      `EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF) EXECUTE ${stmt}(${args})`,
    );
    await q.query('ROLLBACK TO SAVEPOINT ex');
    await q.query(`DEALLOCATE ${stmt}`);
    console.log(`\n=== ${name} (${mode})\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
}
const wrap = (q) => ({
  async query(sql, params, name) {
    if (name?.startsWith('play_path_') && name !== 'play_path_lock_best') {
      await explain(q, sql, params ?? [], name);
    }
    return q.query(sql, params, name);
  },
});
const db = {
  dialect: raw.dialect,
  async query(sql, params, name) {
    if (name?.startsWith('play_path_')) {
      return raw.transaction((tx) => wrap(tx).query(sql, params, name));
    }
    return raw.query(sql, params, name);
  },
  get generic() {
    return db;
  },
  transaction: (work) => raw.transaction((tx) => work(wrap(tx))),
  listen: (channel, onNotify) => raw.listen(channel, onNotify),
  close: () => raw.close(),
};
const app = await buildApi(testConfig({ logLevel: 'silent' }), {
  db,
  clock: systemClock,
  ids: uuidIds,
  writeTokenKey: randomBytes(32),
  secrets: new SecretBox(randomBytes(32)),
  adminToken: 'x'.repeat(32),
});
await app.ready();
const [g] = await raw.query(
  `SELECT g.id AS game_id, l.id AS board_id, c.client_id FROM games g
   JOIN leaderboards l ON l.game_id = g.id AND l.position = 1
   JOIN game_clients c ON c.game_id = g.id ORDER BY g.name LIMIT 1`,
);
// A batch as under load: 25 plays of distinct players at once, then their 25 scores at once.
const batch = Number(process.argv[3] ?? 25);
const players = await raw.query('SELECT id FROM players ORDER BY random() LIMIT $1', [batch]);
const plays = await Promise.all(
  players.map((p) =>
    app.arcade.plays.open({
      gameId: g.game_id,
      playerId: p.id,
      leaderboardId: g.board_id,
      idempotencyKey: null,
    }),
  ),
);
await Promise.all(
  plays.map((play) =>
    app.arcade.plays.score({
      gameId: g.game_id,
      playId: play.id,
      leaderboardId: g.board_id,
      score: Math.floor(Math.random() * 1_000_000),
      idempotencyKey: null,
    }),
  ),
);
await app.close();
await raw.close();
