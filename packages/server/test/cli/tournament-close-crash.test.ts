import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wholeHstToUnits } from '@coinop/core';
import { createTestDatabase, storeVariants } from '@coinop/testkit/db';
import { within } from '@coinop/testkit/poll';
import { testConfig, type Config } from '../../src/config.js';
import { systemClock, uuidIds } from '../../src/ids.js';
import { openDatabase, startServer } from '../../src/main.js';
import { ensureArcade } from '../../src/store/arcades.js';
import type { Db } from '../../src/store/db.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { insertGame, publishGame } from '../../src/store/games.js';
import { auditLedger } from '../../src/store/ledger.js';
import { migrate } from '../../src/store/migrate.js';
import { createPlayer } from '../../src/store/players.js';
import {
  fillPoolTo,
  mintTo,
  postedBalance,
  seedEntrants,
  tournamentWithRound,
} from '../fixtures/tournaments.js';
import { cleanEnv, serve, type ServeChild } from './run-cli.js';

/*
 * The close of a round by real `coinop serve` processes (docs/concepts/tournaments.md,
 * "Closing"): killed with SIGKILL in the middle of the close's transaction (the test hook
 * COINOP_TEST_CLOSE_PAUSE_MS holds it open before its commit), the restarted process closes the
 * round once and pays once; two processes on one Postgres close a round once between them.
 */

const ENTRANTS = 60;
/** A round play's entry fee, 1 HST, and its leaders' part (70%) that settling it puts in the pool. */
const FEE = 100_000_000n;
const LEADERS_PART = 70_000_000n;
/** Paid to 21 places (the top 34% of 60) and 5 units of remainder. */
const POOL = 1_000_000_013n;
const PAUSE_ENV = 'COINOP_TEST_CLOSE_PAUSE_MS';
const CLOSED = /^closed tournament round ([0-9a-f-]{36}) /;
const PAUSED = /^test hook: round ([0-9a-f-]{36}) closed, pausing/;
const BUSY = /^tournament round ([0-9a-f-]{36}) is being closed by another process/;

interface Seeded {
  roundId: string;
  tournamentId: string;
  /** Players best first. */
  players: string[];
}

/** A game, a round that ended a minute ago with ENTRANTS ranked players, and its pool at POOL. */
function seedDueRound(db: Db): Promise<Seeded> {
  return seedRound(db, { endsInMs: -60_000, entryFeeUnits: 0n, poolUnits: POOL });
}

/**
 * A game (published, so a player may open a play on its round), a round that ends `endsInMs`
 * from now with ENTRANTS ranked players and that entry fee, and its pool at `poolUnits`.
 */
async function seedRound(
  db: Db,
  options: { endsInMs: number; entryFeeUnits: bigint; poolUnits: bigint },
): Promise<
  Seeded & { gameId: string; mintAccountId: string; developerAccountId: string; endsAt: Date }
> {
  await migrate(db);
  const clock = systemClock;
  const arcade = await ensureArcade(db, clock, uuidIds);
  const developer = await ensureDeveloper(db, clock, uuidIds, `0x${'c'.repeat(40)}`);
  const game = await db.transaction((tx) =>
    insertGame(
      tx,
      clock,
      uuidIds,
      arcade.id,
      {
        developerId: developer.id,
        name: 'Crash Cup game',
        description: 'a tournament closed through a crash',
        category: 'arcade',
        developerInfo: '',
        tagLine: '',
        url: 'https://game.example',
        coverUrl: 'https://game.example/cover.png',
        scoreDisplay: 'NORMAL',
        scoreUnit: '',
        prodDomain: null,
      },
      [{ name: 'Main', costUnits: wholeHstToUnits(1), leadersMax: 10 }],
    ),
  );
  const now = clock.now();
  const t = await tournamentWithRound(db, {
    gameId: game.id,
    funderAccountId: developer.accountId,
    payoutTable: { topPercent: 34 },
    startsAt: new Date(now.getTime() + options.endsInMs - 3_600_000),
    durationSeconds: 3600,
    entryFeeUnits: options.entryFeeUnits,
    now,
  });
  await db.transaction((tx) => publishGame(tx, clock, game.id));
  const players = await seedEntrants(db, t.roundId, ENTRANTS, now);
  await fillPoolTo(db, arcade.mintAccountId, t.roundId, options.poolUnits, now);
  return {
    roundId: t.roundId,
    tournamentId: t.tournamentId,
    players,
    gameId: game.id,
    mintAccountId: arcade.mintAccountId,
    developerAccountId: developer.accountId,
    endsAt: t.endsAt,
  };
}

/** The round closed exactly once: its results, its prizes' transfers, the pool at 0, audit balanced. */
async function expectClosedOnce(db: Db, seeded: Seeded): Promise<void> {
  const [round] = await db.query<{ status: string; pool_units: string }>(
    'SELECT status, pool_units::text AS pool_units FROM tournament_rounds WHERE id = $1',
    [seeded.roundId],
  );
  expect(round).toEqual({ status: 'closed', pool_units: POOL.toString() });
  // ceil(60 × 34 / 100) = 21 places.
  const results = await db.query<{ place: number; player_id: string; prize_units: string }>(
    `SELECT place, player_id, prize_units::text AS prize_units FROM tournament_results
     WHERE round_id = $1 ORDER BY place`,
    [seeded.roundId],
  );
  const prize = POOL / 21n;
  expect(results).toEqual(
    seeded.players.slice(0, 21).map((playerId, i) => ({
      place: i + 1,
      player_id: playerId,
      prize_units: prize.toString(),
    })),
  );
  const [paid] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM transfers WHERE debit_account_id = $1`,
    [seeded.roundId],
  );
  // 21 prizes and the remainder to the arcade, once.
  expect(paid?.n).toBe(22);
  const [winner] = await db.query<{ account_id: string }>(
    'SELECT account_id FROM players WHERE id = $1',
    [seeded.players[0]],
  );
  expect(await postedBalance(db, winner!.account_id)).toBe(prize);
  expect(await postedBalance(db, seeded.roundId)).toBe(0n);
  const rounds = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM tournament_rounds WHERE tournament_id = $1',
    [seeded.tournamentId],
  );
  expect(rounds[0]?.n).toBe(1);
  expect((await auditLedger(db)).balanced).toBe(true);
}

function matching(server: ServeChild, pattern: RegExp): string[] {
  return server.messages.flatMap((m) => pattern.exec(m)?.[1] ?? []);
}

/** Stops a server as an operator does; it stops its closer with the rest, and exits cleanly. */
async function stop(server: ServeChild): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

describe.each(storeVariants())('a round closed by coinop serve on %s', (variant) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /**
   * A store for `coinop serve`: its flags, the same store as an in-process server's config, and
   * a way to open it here while no server runs.
   */
  async function store(): Promise<{ flags: string[]; config: Config; open(): Promise<Db> }> {
    const dataDir = await mkdtemp(join(tmpdir(), 'coinop-close-crash-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const base = ['--api-port', '0', '--auth-port', '0', '--data-dir', dataDir];
    let flags = base;
    let config = testConfig({ apiPort: 0, dataDir });
    if (variant === 'postgres') {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      flags = [...base, '--database-url', database.url];
      config = testConfig({ apiPort: 0, dataDir, databaseUrl: database.url });
    }
    return { flags, config, open: () => openDatabase(config) };
  }

  it('closes once after a SIGKILL in the middle of the close', async () => {
    const { flags, open } = await store();
    let db = await open();
    const seeded = await seedDueRound(db);
    await db.close();

    let server = await serve(flags, cleanEnv({ [PAUSE_ENV]: '120000' }));
    cleanups.push(async () => void server.child.kill('SIGKILL'));
    // The close has paid the pool in its transaction and waits to commit: kill it there.
    await within(30_000, async () => matching(server, PAUSED).length > 0);
    expect(matching(server, PAUSED)).toEqual([seeded.roundId]);
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe(null);

    server = await serve(flags);
    await within(30_000, async () => matching(server, CLOSED).length > 0);
    expect(matching(server, CLOSED)).toEqual([seeded.roundId]);
    await stop(server);

    db = await open();
    try {
      await expectClosedOnce(db, seeded);
    } finally {
      await db.close();
    }
  }, 180_000);

  it('settles a play left open at the end once, after a SIGKILL in the middle of the close', async () => {
    const { flags, config, open } = await store();
    const inProcess = await startServer(config, { seedDemo: false, banner: false });
    const { arcade } = inProcess.api;
    // A round with a 1 HST entry fee that ends in a few seconds: time to open a play on it. Seeded
    // once the server is up, so a slow start on a busy machine does not eat that time.
    const seeded = await seedRound(arcade.db, {
      endsInMs: 6_000,
      entryFeeUnits: FEE,
      // The close adds the open play's leaders' part, so it pays POOL as the other test does.
      poolUnits: POOL - LEADERS_PART,
    });
    const player = await createPlayer(arcade.db, arcade.clock, uuidIds, {
      wallet: null,
      name: 'Cyd',
    });
    await mintTo(arcade.db, seeded.mintAccountId, player.accountId, 5n * FEE, arcade.clock.now());
    const play = await arcade.plays.open({
      gameId: seeded.gameId,
      playerId: player.id,
      leaderboardId: seeded.roundId,
      idempotencyKey: null,
    });
    // Its expiry is the round's end: the sweep leaves it to the close.
    expect(play.expiresAt).toEqual(seeded.endsAt);
    await inProcess.close();
    await within(30_000, async () => Date.now() > seeded.endsAt.getTime() + 500);

    let server = await serve(flags, cleanEnv({ [PAUSE_ENV]: '120000' }));
    cleanups.push(async () => void server.child.kill('SIGKILL'));
    await within(30_000, async () => matching(server, PAUSED).length > 0);
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe(null);

    server = await serve(flags);
    await within(30_000, async () => matching(server, CLOSED).length > 0);
    expect(server.messages.filter((m) => CLOSED.test(m))).toEqual([
      // Its entrants are those who played in it: the seeded bests were loaded, not played.
      expect.stringMatching(
        /: 1 entrant, 1 unscored play settled as expired, pool 1000000013 units paid to 21 places /,
      ),
    ]);
    await stop(server);

    const db = await open();
    try {
      await expectClosedOnce(db, seeded);
      const [row] = await db.query<{ status: string }>('SELECT status FROM plays WHERE id = $1', [
        play.id,
      ]);
      expect(row?.status).toBe('expired');
      // Settled once: the lock, then its fee split as an expired play's (70% to the pool).
      const moves = await db.query<{ reason: string; kind: string; amount: string }>(
        `SELECT reason, kind, amount::text AS amount FROM transfers WHERE play_id = $1
         ORDER BY created_at, reason`,
        [play.id],
      );
      expect(moves).toEqual([
        { reason: 'play_lock', kind: 'pending', amount: FEE.toString() },
        { reason: 'payout_arcade', kind: 'posted', amount: '10000000' },
        { reason: 'payout_developer', kind: 'posted', amount: '20000000' },
        { reason: 'play_settle', kind: 'post_pending', amount: FEE.toString() },
        { reason: 'tournament_pool', kind: 'posted', amount: LEADERS_PART.toString() },
      ]);
      expect(await postedBalance(db, player.accountId)).toBe(4n * FEE);
    } finally {
      await db.close();
    }
  }, 180_000);

  it.runIf(variant === 'postgres')(
    'closes a round once when two API processes race for it',
    async () => {
      const { flags, open } = await store();
      const db = await open();
      const seeded = await seedDueRound(db);
      // Each close holds its transaction open for 8 s: the other process, started at the same
      // time, finds the round busy (and says so at debug level), then closed.
      const env = cleanEnv({ [PAUSE_ENV]: '8000' });
      const debug = [...flags, '--log-level', 'debug'];
      const servers = await Promise.all([serve(debug, env), serve(debug, env)]);
      cleanups.push(async () => servers.forEach((s) => s.child.kill('SIGKILL')));
      await within(30_000, async () => servers.some((s) => matching(s, CLOSED).length > 0));
      // A moment for the other process to look again and find the round closed.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      await Promise.all(servers.map(stop));
      expect(servers.flatMap((s) => matching(s, CLOSED))).toEqual([seeded.roundId]);
      const loser = servers.find((s) => matching(s, CLOSED).length === 0)!;
      expect(matching(loser, BUSY)).toContain(seeded.roundId);
      try {
        await expectClosedOnce(db, seeded);
      } finally {
        await db.close();
      }
    },
    180_000,
  );
});
