import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { LiveBalance, LiveBoard, PlayerNotification } from '@coinop/protocol';
import { buildApi } from 'coinop/app.js';
import { testConfig } from 'coinop/config.js';
import { ManualClock, uuidIds } from 'coinop/ids.js';
import { migrate } from 'coinop/store/migrate.js';
import { openPostgres } from 'coinop/store/postgres.js';
import type { Db } from 'coinop/store/db.js';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { createTestDatabase, storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { testSecretBox } from '@coinop/testkit/secrets';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';
import { listening, SseClient, type ReadEvent } from '../fixtures/sse-client.js';
import { mintTo, tournamentWithRound } from '../fixtures/tournaments.js';

/**
 * Issue 31, "nothing is live": a leader's balance rose with no notice. The player's stream
 * carries their balance and a notification naming the play that paid them, the game's boards
 * move live, a reconnect resumes from the last event (also across a restart), and nothing a
 * viewer may not see is sent: another player's money, an unpublished game.
 */

const isNotification = (e: ReadEvent) => e.event === 'notification';
const isBalance = (e: ReadEvent) => e.event === 'balance';
const boardWith = (name: string) => (e: ReadEvent) =>
  e.event === 'board' && (e.data as LiveBoard).leaders.some((l) => l.name === name);

describe.each(storeVariants())('live updates on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let game: GameFixture;
  const streams: SseClient[] = [];

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  async function setUp() {
    s = await buildTestSignin(variant, { faucetHst: 10 });
    api = testApiOf(s);
    game = await gameWithTiers(api, { costs: [1], leadersMax: 3 });
    const wallet = newWallet();
    const alice = await walletSignIn(s.auth, wallet);
    const faucet = await s.api.inject({
      method: 'POST',
      url: '/player/faucet',
      headers: { authorization: `Bearer ${alice.access_token}` },
    });
    expect(faucet.statusCode, faucet.body).toBe(200);
    return { alice: { playerId: alice.playerId, token: alice.access_token } };
  }

  async function playAndScore(app: FastifyInstance, playerId: string, score: number) {
    const token = await writeToken({ ...api, app }, game);
    const headers = { authorization: `Bearer ${token}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const leaderboardId = game.tiers[0]!.id;
    s.clock.advance(1000);
    const play = await app.inject({
      method: 'POST',
      url: `${base}/play`,
      headers,
      payload: { playerId, leaderboardId },
    });
    expect(play.statusCode, play.body).toBe(200);
    const res = await app.inject({
      method: 'POST',
      url: `${base}/score`,
      headers,
      payload: { playId: play.json().id, leaderboardId, score },
    });
    expect(res.statusCode, res.body).toBe(200);
    return play.json<{ id: string }>().id;
  }

  const open = async (url: string, headers: Record<string, string> = {}) => {
    const stream = await SseClient.open(url, headers);
    streams.push(stream);
    return stream;
  };

  it('tells a leader of a payout, with the play that caused it, and moves the board', async () => {
    const { alice } = await setUp();
    await playAndScore(s.api, alice.playerId, 50);
    const base = await listening(s.api);
    const auth = { authorization: `Bearer ${alice.token}` };
    const stream = await open(`${base}/player/events?gameId=${game.gameId}`, auth);
    expect(stream.status, stream.body).toBe(200);
    expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
    // First what it follows as it stands: the board, and alice's balance (10 - 1, and 0.7 back:
    // nobody led the board when she played).
    const first = await stream.next(isBalance);
    expect(first.data).toEqual({
      balance: '9.7',
      pending: '0',
      pendingPayouts: '0',
      pendingPayoutsReleaseAt: null,
    } satisfies LiveBalance);
    await stream.next(boardWith(await aliceName(alice.token)));

    const bob = await fundedPlayer(api, 5, 'bob');
    const bobsPlay = await playAndScore(s.api, bob.playerId, 10);
    const paid = await stream.next(isNotification);
    expect(paid.data).toMatchObject({
      kind: 'payout',
      amount: '0.7',
      status: 'paid',
      playId: bobsPlay,
      fromPlayerName: 'bob',
      gameId: game.gameId,
      tierName: 'Tier 1',
    } satisfies Partial<PlayerNotification>);
    expect(paid.id).toBe((paid.data as PlayerNotification).id);
    expect((await stream.next((e) => isBalance(e) && e !== first)).data).toMatchObject({
      balance: '10.4',
    });
    const board = (await stream.next(boardWith('bob'))).data as LiveBoard;
    expect(board.leaderboardId).toBe(game.tiers[0]!.id);
    expect(board.leaders.map((l) => [l.name, l.score])).toEqual([
      [await aliceName(alice.token), 50],
      ['bob', 10],
    ]);

    // The menu lists the same notification.
    const list = await s.api.inject({ method: 'GET', url: '/player/notifications', headers: auth });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().notifications).toEqual([paid.data]);
    // As the web app's menu asks for it: a query value is text (it was refused as "must be
    // integer", and the menu stayed empty after every reload).
    const asked = await s.api.inject({
      method: 'GET',
      url: '/player/notifications?limit=20',
      headers: auth,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().notifications).toEqual([paid.data]);
    for (const limit of ['0', '51', 'ten', '2.5']) {
      const refused = await s.api.inject({
        method: 'GET',
        url: `/player/notifications?limit=${limit}`,
        headers: auth,
      });
      expect(refused.statusCode, limit).toBe(400);
      expect(refused.json(), limit).toMatchObject({
        code: 'validation_failed',
        details: { field: 'limit' },
      });
    }
  });

  it("shows a player's balance move when a game server opens a play for them", async () => {
    const { alice } = await setUp();
    const base = await listening(s.api);
    const stream = await open(`${base}/player/events`, {
      authorization: `Bearer ${alice.token}`,
    });
    const first = await stream.next(isBalance);
    expect(first.data).toMatchObject({ balance: '10', pending: '0' });
    const token = await writeToken(api, game);
    const play = await s.api.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
      headers: { authorization: `Bearer ${token}` },
      payload: { playerId: alice.playerId, leaderboardId: game.tiers[0]!.id },
    });
    expect(play.statusCode, play.body).toBe(200);
    // The play's cost is locked: nothing else moved, and the page hears of it before any score.
    const moved = await stream.next((e) => isBalance(e) && e !== first);
    expect(moved.data).toMatchObject({ balance: '9', pending: '1' });
  });

  it("never sends another player's balance or notifications", async () => {
    const { alice } = await setUp();
    await playAndScore(s.api, alice.playerId, 50);
    const bobWallet = newWallet();
    const bob = await walletSignIn(s.auth, bobWallet);
    const base = await listening(s.api);
    const bobs = await open(`${base}/player/events?gameId=${game.gameId}`, {
      authorization: `Bearer ${bob.access_token}`,
    });
    expect(bobs.status, bobs.body).toBe(200);
    await bobs.next(isBalance);
    const carol = await fundedPlayer(api, 5, 'carol');
    await playAndScore(s.api, carol.playerId, 10);
    // Bob sees the board move (it is public) but not alice's payout nor her balance.
    await bobs.next(boardWith('carol'));
    await new Promise((r) => setTimeout(r, 300));
    expect(bobs.events.filter(isNotification)).toEqual([]);
    expect(bobs.events.filter(isBalance).map((e) => e.data)).toEqual([
      { balance: '0', pending: '0', pendingPayouts: '0', pendingPayoutsReleaseAt: null },
    ]);
    // No token, no stream; a game token is not a web session.
    const anonymous = await open(`${base}/player/events`);
    expect(anonymous.status).toBe(401);
  });

  it('answers 404 for the boards of an unpublished game, to anyone', async () => {
    const { alice } = await setUp();
    const hidden = await gameWithTiers(api, { costs: [1], published: false });
    const base = await listening(s.api);
    const visitor = await open(`${base}/catalog/games/${hidden.gameId}/events`);
    expect(visitor.status).toBe(404);
    expect(JSON.parse(visitor.body)).toMatchObject({ code: 'game_not_found' });
    const player = await open(`${base}/player/events?gameId=${hidden.gameId}`, {
      authorization: `Bearer ${alice.token}`,
    });
    expect(player.status).toBe(404);
    // Not an id, or an instant no event has (Postgres would refuse it with an error).
    for (const lastEventId of ['not-an-id', `${'9'.repeat(19)}-${randomUUID()}`]) {
      const bad = await open(`${base}/player/events`, {
        authorization: `Bearer ${alice.token}`,
        'last-event-id': lastEventId,
      });
      expect(bad.status, lastEventId).toBe(400);
      expect(JSON.parse(bad.body)).toMatchObject({ code: 'validation_failed' });
    }
    // A published game's boards stream for anyone.
    const open200 = await open(`${base}/catalog/games/${game.gameId}/events`);
    expect(open200.status).toBe(200);
    const board = (await open200.next((e) => e.event === 'board')).data as LiveBoard;
    expect(board).toEqual({ gameId: game.gameId, leaderboardId: game.tiers[0]!.id, leaders: [] });
  });

  it('resumes after a reconnect, and after a server restart, with what was missed', async () => {
    const { alice } = await setUp();
    await playAndScore(s.api, alice.playerId, 50);
    const bob = await fundedPlayer(api, 5, 'bob');
    let base = await listening(s.api);
    const auth = { authorization: `Bearer ${alice.token}` };
    const first = await open(`${base}/player/events`, auth);
    await first.next(isBalance);
    await playAndScore(s.api, bob.playerId, 1);
    const seen = await first.next(isNotification);
    first.close();

    // Away: bob plays again; the reconnect names the last event it had.
    const missedPlay = await playAndScore(s.api, bob.playerId, 2);
    const second = await open(`${base}/player/events`, { ...auth, 'last-event-id': seen.id! });
    const missed = await second.next(
      (e) => isNotification(e) && (e.data as PlayerNotification).playId === missedPlay,
    );
    expect(second.events.filter(isNotification).map((e) => e.id)).not.toContain(seen.id);

    // The server restarts: the open stream ends rather than hold the close up.
    await s.restart();
    await second.untilEnded();
    const afterRestart = await playAndScore(s.api, bob.playerId, 3);
    base = await listening(s.api);
    const third = await open(`${base}/player/events`, { ...auth, 'last-event-id': missed.id! });
    const replayed = await third.next(
      (e) => isNotification(e) && (e.data as PlayerNotification).playId === afterRestart,
    );
    expect(replayed.data).toMatchObject({ kind: 'payout', fromPlayerName: 'bob' });
  });

  it("moves a tournament round's standings live, and tells the winner of the prize", async () => {
    const { alice } = await setUp();
    const mint = s.api.arcade.record.mintAccountId;
    await mintTo(s.db, mint, game.developerAccountId, 10n * 100_000_000n, s.clock.now());
    const now = s.clock.now();
    const round = await tournamentWithRound(s.db, {
      gameId: game.gameId,
      funderAccountId: game.developerAccountId,
      guaranteeUnits: 2n * 100_000_000n,
      payoutTable: { places: [10000] },
      startsAt: new Date(now.getTime() - 60_000),
      durationSeconds: 3600,
      now,
    });
    s.api.arcade.games.invalidate(game.gameId);
    const base = await listening(s.api);
    const stream = await open(`${base}/player/events?gameId=${game.gameId}`, {
      authorization: `Bearer ${alice.token}`,
    });
    const isRound = (e: ReadEvent) =>
      e.event === 'board' && (e.data as LiveBoard).leaderboardId === round.roundId;
    expect((await stream.next(isRound)).data).toMatchObject({ leaders: [] });

    const token = await writeToken(api, game);
    const headers = { authorization: `Bearer ${token}` };
    const url = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const enter = async (playerId: string, score: number) => {
      const play = await s.api.inject({
        method: 'POST',
        url: `${url}/play`,
        headers,
        payload: { playerId, leaderboardId: round.roundId },
      });
      expect(play.statusCode, play.body).toBe(200);
      const res = await s.api.inject({
        method: 'POST',
        url: `${url}/score`,
        headers,
        payload: { playId: play.json().id, leaderboardId: round.roundId, score },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const bob = await fundedPlayer(api, 5, 'bob');
    await enter(bob.playerId, 10);
    await stream.next((e) => isRound(e) && boardWith('bob')(e));
    await enter(alice.playerId, 70);
    const standings = await stream.next(
      (e) => isRound(e) && (e.data as LiveBoard).leaders.length === 2,
    );
    expect((standings.data as LiveBoard).leaders.map((l) => l.score)).toEqual([70, 10]);

    // The round ends and closes: alice, first, is told of her prize (the whole guarantee).
    s.clock.advance(3600_000);
    const { closed } = await s.api.arcade.closer.closeDue(s.api.log);
    expect(closed.map((c) => c.roundId)).toEqual([round.roundId]);
    const prize = await stream.next(isNotification);
    expect(prize.data).toMatchObject({
      kind: 'prize',
      rank: 1,
      amount: '2',
      gameId: game.gameId,
    } satisfies Partial<PlayerNotification>);
  });

  async function aliceName(token: string): Promise<string> {
    const me = await s.api.inject({
      method: 'GET',
      url: '/player/me',
      headers: { authorization: `Bearer ${token}` },
    });
    return me.json<{ name: string }>().name;
  }
});

/**
 * Several API processes share a database only on Postgres: the embedded PGlite serves one
 * process (`--workers` needs `--database-url`), which hands its notices to its own streams.
 */
const hasPostgres = storeVariants().includes('postgres');
describe.runIf(hasPostgres)(
  `two API processes on one Postgres database${hasPostgres ? '' : ' (skipped: DATABASE_URL is not set)'}`,
  () => {
    const closers: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const close of closers.splice(0).reverse()) await close();
    });

    /** The databases of two processes: two pools on one Postgres. */
    async function twoDbs(): Promise<[Db, Db]> {
      const database = await createTestDatabase();
      closers.push(() => database.drop());
      const a = await openPostgres(database.url, 60);
      const b = await openPostgres(database.url, 60);
      closers.push(
        () => a.close(),
        () => b.close(),
      );
      await migrate(a);
      return [a, b];
    }

    it('a score through one process reaches a stream on the other', async () => {
      const [dbA, dbB] = await twoDbs();
      const clock = new ManualClock(new Date());
      const config = testConfig();
      const shared = {
        clock,
        ids: uuidIds,
        writeTokenKey: randomBytes(32),
        secrets: testSecretBox(),
      };
      const build = async (db: Db) => {
        const app = await buildApi(config, { ...shared, db, adminToken: TEST_ADMIN_TOKEN });
        await app.ready();
        closers.push(() => app.close());
        return app;
      };
      const a = await build(dbA);
      const b = await build(dbB);
      const api: TestApi = { app: a, db: dbA, clock, config, close: async () => undefined };
      const game = await gameWithTiers(api, { costs: [1] });
      const player = await fundedPlayer(api, 5, 'dora');
      const stream = await SseClient.open(
        `${await listening(b)}/catalog/games/${game.gameId}/events`,
      );
      closers.push(async () => stream.close());
      await stream.next((e) => e.event === 'board');

      const token = await writeToken(api, game);
      const headers = { authorization: `Bearer ${token}` };
      const url = `/arcades/${game.arcadeId}/games/${game.gameId}`;
      const leaderboardId = game.tiers[0]!.id;
      const play = await a.inject({
        method: 'POST',
        url: `${url}/play`,
        headers,
        payload: { playerId: player.playerId, leaderboardId },
      });
      const score = await a.inject({
        method: 'POST',
        url: `${url}/score`,
        headers,
        payload: { playId: play.json().id, leaderboardId, score: 42 },
      });
      expect(score.statusCode, score.body).toBe(200);
      const moved = (await stream.next(boardWith('dora'))).data as LiveBoard;
      expect(moved.leaders.map((l) => [l.name, l.score])).toEqual([['dora', 42]]);
    });
  },
);
