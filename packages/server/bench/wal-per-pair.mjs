// Diagnosis for issue 31's indexes: the write-ahead log one play+score pair writes through the
// compiled PlayService, with migration 034's transfer indexes and without them (dropped), on a
// fresh, migrated PGlite or Postgres database. WAL bytes are what the writes cost the database,
// index entries included, and unlike a timing they do not move with the machine's load.
//   node packages/server/bench/wal-per-pair.mjs [pglite | postgres://…] [pairs]
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApi } from '../dist/app.js';
import { SecretBox } from '../dist/credentials/secret-box.js';
import { testConfig } from '../dist/config.js';
import { systemClock, uuidIds } from '../dist/ids.js';
import { openPglite } from '../dist/store/pglite.js';
import { openPostgres } from '../dist/store/postgres.js';
import { migrate } from '../dist/store/migrate.js';
import { createPlayer } from '../dist/store/players.js';
import { insertGame } from '../dist/store/games.js';
import { createDeveloper, publish } from '../dist/services/admin.js';
import { mintHst } from '../dist/services/admin-hst.js';

const [target = 'pglite', pairsArg = '300'] = process.argv.slice(2);
const pairs = Number(pairsArg);
const HST = 100_000_000n;
const scratch = target === 'pglite' ? null : new URL(target);
if (scratch) scratch.pathname = '/coinop_wal_per_pair';
async function admin(sql) {
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  await client.query(sql);
  await client.end();
}

/** WAL bytes per pair over `pairs` pairs on a fresh database; `dropNew` drops 034's indexes. */
async function measure(dropNew) {
  if (scratch) {
    await admin('DROP DATABASE IF EXISTS coinop_wal_per_pair WITH (FORCE)');
    await admin('CREATE DATABASE coinop_wal_per_pair');
  }
  const db = scratch ? await openPostgres(scratch.toString(), 4) : await openPglite(undefined);
  await migrate(db);
  await db.query('DROP INDEX IF EXISTS transfers_by_time');
  await db.query('DROP INDEX IF EXISTS transfers_by_debit_account');
  if (!dropNew) {
    // Migration 034's statements, so the run does not depend on which migrations are present.
    await db.query('CREATE INDEX transfers_by_time ON transfers (created_at, id)');
    await db.query(
      'CREATE INDEX transfers_by_debit_account ON transfers (debit_account_id, created_at, id)',
    );
  }
  const app = await buildApi(testConfig({ logLevel: 'silent' }), {
    db,
    clock: systemClock,
    ids: uuidIds,
    writeTokenKey: randomBytes(32),
    secrets: new SecretBox(randomBytes(32)),
    adminToken: 'x'.repeat(32),
  });
  await app.ready();
  const { arcade } = app;
  const developer = await createDeveloper(arcade, `0x${randomBytes(20).toString('hex')}`);
  const game = await db.transaction((tx) =>
    insertGame(
      tx,
      arcade.clock,
      uuidIds,
      arcade.record.id,
      {
        developerId: developer.developerId,
        name: 'WAL',
        description: '',
        category: 'Arcade',
        developerInfo: '',
        tagLine: '',
        url: '',
        coverUrl: '',
        scoreDisplay: 'NORMAL',
        prodDomain: null,
      },
      [{ name: 'One', costUnits: HST, leadersMax: 10 }],
    ),
  );
  await publish(arcade, game.id);
  const leaderboardId = (await arcade.games.get(game.id)).leaderboards[0].id;
  const players = [];
  for (let n = 0; n < 50; n += 1) {
    const p = await createPlayer(db, arcade.clock, uuidIds, { wallet: null, name: `P${n}` });
    await mintHst(arcade, { id: p.id, amountUnits: 1000n * HST });
    players.push(p.id);
  }
  const pair = async (n) => {
    const play = await arcade.plays.open({
      gameId: game.id,
      playerId: players[n % players.length],
      leaderboardId,
      idempotencyKey: null,
    });
    await arcade.plays.score({
      gameId: game.id,
      playId: play.id,
      leaderboardId,
      score: (n * 7919) % 100_000,
      idempotencyKey: null,
    });
  };
  for (let n = 0; n < 50; n += 1) await pair(n); // the board fills; payouts start
  await db.query('CHECKPOINT');
  const lsn = async () => (await db.query('SELECT pg_current_wal_lsn()::text AS l'))[0].l;
  const from = await lsn();
  const cpuFrom = process.cpuUsage();
  for (let n = 0; n < pairs; n += 1) await pair(n);
  const cpu = process.cpuUsage(cpuFrom);
  const [{ bytes }] = await db.query('SELECT pg_wal_lsn_diff($1, $2)::text AS bytes', [
    await lsn(),
    from,
  ]);
  const [{ transfers }] = await db.query('SELECT count(*)::int AS transfers FROM transfers');
  await app.close();
  await db.close();
  if (scratch) await admin('DROP DATABASE coinop_wal_per_pair WITH (FORCE)');
  return {
    walPerPair: Number(bytes) / pairs,
    cpuMsPerPair: (cpu.user + cpu.system) / 1000 / pairs,
    transfers,
  };
}

console.log(
  `# WAL per play+score pair, ${target === 'pglite' ? 'PGlite' : 'Postgres'}, ${pairs} pairs`,
);
// On PGlite the database runs in this process, so its CPU time is the whole pair's (the bench's
// driver included); on Postgres it is this process's side only.
console.log('| indexes | WAL bytes per pair | CPU ms per pair | transfers in the table |');
console.log('| --- | --- | --- | --- |');
for (const [name, dropNew] of [
  ['without 034', true],
  ['with 034', false],
  ['without 034 (again)', true],
  ['with 034 (again)', false],
  ['without 034 (third)', true],
  ['with 034 (third)', false],
]) {
  const { walPerPair, cpuMsPerPair, transfers } = await measure(dropNew);
  console.log(
    `| ${name} | ${Math.round(walPerPair)} | ${cpuMsPerPair.toFixed(2)} | ${transfers} |`,
  );
}
