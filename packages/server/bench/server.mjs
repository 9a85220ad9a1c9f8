// A benchmark target in a process of its own, so the load generator does not share its event
// loop: either the compiled coinop API on a fresh database (seeded with games and funded
// players), or a bare Fastify route as the yardstick. Driven by the parent over IPC.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { wholeHstToUnits } from '@coinop/core';
import { buildApi } from '../dist/app.js';
import { SecretBox } from '../dist/credentials/secret-box.js';
import { testConfig } from '../dist/config.js';
import { systemClock, uuidIds } from '../dist/ids.js';
import { insertGame, publishGame } from '../dist/store/games.js';
import { rankTreeMismatches } from '../dist/store/leaders.js';
import { applyTransfers, auditLedger } from '../dist/store/ledger.js';
import { migrate } from '../dist/store/migrate.js';
import { createGameClient } from '../dist/credentials/game-clients.js';
import { createPlayer } from '../dist/store/players.js';
import { ensureDeveloper } from '../dist/store/developers.js';
import { openPglite } from '../dist/store/pglite.js';
import { openPostgres } from '../dist/store/postgres.js';

const MINT_BATCH = 250;

let closeTarget = async () => {};

process.on('message', (message) => {
  handle(message).then(
    (reply) => process.send?.({ id: message.id, ok: true, reply }),
    (error) => process.send?.({ id: message.id, ok: false, error: String(error?.stack ?? error) }),
  );
});
process.on('disconnect', () => void closeTarget().finally(() => process.exit(0)));

async function handle(message) {
  switch (message.type) {
    case 'start-bare':
      return startBare();
    case 'start-api':
      return startApi(message.options);
    case 'counters':
      return { ...counters, cpu: process.cpuUsage() };
    case 'audit':
      return audit();
    case 'close':
      await closeTarget();
      setImmediate(() => process.exit(0));
      return null;
    default:
      throw new Error(`unknown message ${message.type}`);
  }
}

async function startBare() {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  closeTarget = () => app.close();
  return { url: `http://127.0.0.1:${app.server.address().port}` };
}

// Statements and transactions the API ran, for "statements per play/score" (a counter bump per
// call; no timing, so the measured path stays the real one).
const counters = { statements: 0, transactions: 0 };
let db = null;

// With `seed: false` (Postgres only) it joins a database another API process seeded: a second
// process of the same arcade.
async function startApi({ store, postgresUrl, games, players, fundHst, seed: seeding = true }) {
  const dataDir = store === 'pglite' ? await mkdtemp(join(tmpdir(), 'coinop-bench-pglite-')) : null;
  // Consent as in production: a game charges only players who allowed it (seeded below).
  const config = testConfig({
    logLevel: 'silent',
    dataDir: dataDir ?? '',
    defaultAllowanceUnits: 0n,
  });
  const raw =
    store === 'pglite'
      ? await openPglite(dataDir)
      : await openPostgres(postgresUrl, config.databasePoolSize);
  await migrate(raw);
  db = counting(raw);
  const app = await buildApi(config, {
    db,
    clock: systemClock,
    ids: uuidIds,
    writeTokenKey: randomBytes(32),
    secrets: new SecretBox(randomBytes(32)),
    adminToken: randomBytes(16).toString('hex'),
  });
  await app.ready();
  closeTarget = async () => {
    await app.close();
    await raw.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };

  const seeded = seeding ? await seed(app, raw, { games, players, fundHst }) : {};
  await app.listen({ port: 0, host: '127.0.0.1' });
  counters.statements = 0;
  counters.transactions = 0;
  return {
    url: `http://127.0.0.1:${app.server.address().port}`,
    arcadeId: app.arcade.record.id,
    poolSize: store === 'postgres' ? config.databasePoolSize : 1,
    ...seeded,
  };
}

/**
 * Games of distinct developers (each with the default two tiers), client credentials for each,
 * and players funded by mint transfers, through the same store calls the test fixtures use.
 */
async function seed(app, raw, { games, players, fundHst }) {
  const clock = systemClock;
  const arcade = app.arcade.record;
  const seededGames = [];
  for (let g = 0; g < games; g++) {
    const developer = await ensureDeveloper(raw, clock, uuidIds, wallet());
    const game = await raw.transaction((tx) =>
      insertGame(
        tx,
        clock,
        uuidIds,
        arcade.id,
        {
          developerId: developer.id,
          name: `Bench game ${g + 1}`,
          description: 'a benchmark game',
          category: 'arcade',
          developerInfo: '',
          tagLine: '',
          url: 'https://game.example',
          coverUrl: 'https://game.example/cover.png',
          scoreDisplay: 'NORMAL',
          prodDomain: null,
        },
        app.config.defaultTiers.map((t) => ({
          name: t.name,
          costUnits: wholeHstToUnits(t.costHst),
          leadersMax: app.config.defaultLeadersMax,
        })),
      ),
    );
    await publishGame(raw, clock, game.id);
    const client = await createGameClient(raw, clock, game.id);
    const ref = await app.arcade.games.get(game.id);
    seededGames.push({
      gameId: game.id,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      leaderboardIds: ref.leaderboards.map((b) => b.id),
    });
  }

  const created = [];
  for (let i = 0; i < players; i += 20) {
    const batch = Array.from({ length: Math.min(20, players - i) }, () =>
      createPlayer(raw, clock, uuidIds, { wallet: wallet() }),
    );
    created.push(...(await Promise.all(batch)));
  }
  const units = wholeHstToUnits(fundHst);
  for (let i = 0; i < created.length; i += MINT_BATCH) {
    const transfers = created.slice(i, i + MINT_BATCH).map((p) => ({
      id: uuidIds.next(),
      kind: 'posted',
      debitAccountId: arcade.mintAccountId,
      creditAccountId: p.accountId,
      amount: units,
      pendingId: null,
      reason: 'mint',
      playId: null,
    }));
    await raw.transaction((tx) => applyTransfers(tx, transfers, clock.now()));
  }
  // Every player allows every game, as players of a live arcade would, so each paid play spends
  // an allowance the way it does in production.
  const playerIds = created.map((p) => p.id);
  for (const g of seededGames) {
    await raw.query(
      `INSERT INTO allowances (player_id, game_id, daily_units, decided_at, day, spent_units,
                               updated_at)
       SELECT unnest($1::uuid[]), $2, $3, now(), current_date, 0, now()`,
      [playerIds, g.gameId, wholeHstToUnits(BENCH_DAILY_ALLOWANCE_HST).toString()],
    );
  }
  return { games: seededGames, playerIds };
}

/** Far more than a player can spend in a run. */
const BENCH_DAILY_ALLOWANCE_HST = 1_000_000_000;

async function audit() {
  const ledger = await auditLedger(db);
  const [plays] = await db.query(
    `SELECT count(*) FILTER (WHERE status = 'scored')::int AS scored,
            count(*) FILTER (WHERE status = 'open')::int AS open FROM plays`,
  );
  return {
    balanced: ledger.balanced,
    minted: ledger.minted.toString(),
    playsScored: plays.scored,
    playsOpen: plays.open,
    rankTreeMismatches: (await rankTreeMismatches(db)).length,
  };
}

function counting(inner) {
  const countedQuery = (q) => (sql, params, name) => {
    counters.statements += 1;
    return q.query(sql, params, name);
  };
  return {
    dialect: inner.dialect,
    query: countedQuery(inner),
    ordered: { depth: inner.ordered.depth, query: countedQuery(inner.ordered) },
    transaction: (work) =>
      inner.transaction((tx) => {
        counters.transactions += 1;
        return work({ query: countedQuery(tx) });
      }),
    listen: (channel, onNotify) => inner.listen(channel, onNotify),
    close: () => inner.close(),
  };
}

function wallet() {
  return `0x${randomBytes(20).toString('hex')}`;
}
