import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tournament, TournamentRoundDetail, TournamentRoundPage } from '@coinop/protocol';
import { uuidIds } from '../../src/ids.js';
import { createDeveloper } from '../../src/services/admin.js';
import { applyTransfers } from '../../src/store/ledger.js';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import {
  balanceOf,
  fundedPlayer,
  gameWithTiers,
  writeToken,
  type GameFixture,
} from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';

/** Issue 18: creating tournaments (developer and operator), and reading them. */
describe.each(storeVariants())('tournaments: creating and reading on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let apiKey: string;

  const inject = (
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => api.app.inject({ method, url, payload, headers });
  const asDeveloper = (method: 'GET' | 'POST', url: string, payload?: object) =>
    inject(method, url, payload, { 'api-key': apiKey });
  const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    inject(method, url, payload, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
  const inAMinute = () => new Date(api.clock.now().getTime() + 60_000).toISOString();
  const valid = () => ({
    name: 'Weekly Cup',
    entryFee: '2',
    startsAt: inAMinute(),
    durationSeconds: 3600,
    recurrence: '0 * * * *',
    maxEntrants: 100,
    maxAttempts: 3,
    payoutTable: { places: [5000, 3000, 2000] },
    guaranteedPool: '10',
  });
  const created = () => `/developer/games/${game.gameId}/tournaments`;

  async function mint(accountId: string, hst: bigint): Promise<void> {
    await api.db.transaction((tx) =>
      applyTransfers(
        tx,
        [
          {
            id: uuidIds.next(),
            kind: 'posted',
            debitAccountId: api.app.arcade.record.mintAccountId,
            creditAccountId: accountId,
            amount: hst * 100_000_000n,
            pendingId: null,
            reason: 'mint',
            playId: null,
          },
        ],
        api.clock.now(),
      ),
    );
  }

  /**
   * `player` plays `round` once through the game server's routes and scores `score`; then the
   * clock passes the round's end and the closer closes it. Returns when the close ran.
   */
  async function playScoreAndClose(
    fixture: GameFixture,
    playerId: string,
    round: { id: string; endsAt: string },
    score: number,
  ): Promise<Date> {
    const auth = { authorization: `Bearer ${await writeToken(api, fixture)}` };
    const base = `/arcades/${fixture.arcadeId}/games/${fixture.gameId}`;
    const play = await inject('POST', `${base}/play`, { playerId, leaderboardId: round.id }, auth);
    expect(play.statusCode, play.body).toBe(200);
    const scored = await inject(
      'POST',
      `${base}/score`,
      { playId: play.json().id, leaderboardId: round.id, score },
      auth,
    );
    expect(scored.statusCode, scored.body).toBe(200);
    api.clock.advance(Date.parse(round.endsAt) + 1000 - api.clock.now().getTime());
    const closedAt = api.clock.now();
    const { closed } = await api.app.arcade.closer.closeDue(api.app.log);
    expect(closed.map((c) => c.roundId)).toContain(round.id);
    return closedAt;
  }

  beforeAll(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [1, 10] });
    ({ apiKey } = await createDeveloper(api.app.arcade, game.developerWallet));
  });
  afterAll(async () => {
    await expectLedgerBalanced(api.db);
    await api.close();
  });

  it('refuses each bad field with a 400 naming it, writing nothing', async () => {
    const now = api.clock.now();
    const bad: [string, object][] = [
      ['payoutTable', { payoutTable: { places: [5000, 3000] } }],
      ['payoutTable', { payoutTable: { topPercent: 0 } }],
      ['payoutTable', { payoutTable: { places: [10000], topPercent: 5 } }],
      ['recurrence', { recurrence: '0 0 * *' }],
      ['recurrence', { recurrence: '99 0 * * *' }],
      ['startsAt', { startsAt: new Date(now.getTime() - 120_000).toISOString() }],
      ['startsAt', { startsAt: new Date(now.getTime() + 400 * 86_400_000).toISOString() }],
      ['durationSeconds', { durationSeconds: 59 }],
      ['durationSeconds', { durationSeconds: 367 * 86_400 }],
      ['endsAt', { endsAt: inAMinute() }],
      ['entryFee', { entryFee: '-1' }],
      ['entryFee', { entryFee: '0.000000001' }],
      ['entryFee', { entryFee: '1e3' }],
      ['guaranteedPool', { guaranteedPool: 'ten' }],
      ['/maxEntrants', { maxEntrants: 0 }],
      ['/maxAttempts', { maxAttempts: 1.5 }],
      ['/name', { name: '' }],
    ];
    for (const [field, change] of bad) {
      const res = await asDeveloper('POST', created(), { ...valid(), ...change });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(String(res.json().details.field)).toContain(field.replace('/', ''));
    }
    // Neither endsAt nor durationSeconds.
    const { durationSeconds: _, ...noEnd } = valid();
    const res = await asDeveloper('POST', created(), noEnd);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.field).toBe('endsAt');
    const list = await asDeveloper('GET', created());
    expect(list.json().tournaments).toEqual([]);
  });

  it('refuses a guarantee the developer cannot cover (402 insufficient_funds), writing nothing', async () => {
    const res = await asDeveloper('POST', created(), valid());
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json().code).toBe('insufficient_funds');
    expect((await asDeveloper('GET', created())).json().tournaments).toEqual([]);
    const [rows] = await api.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM tournaments)::int + (SELECT count(*) FROM tournament_rounds)::int
              + (SELECT count(*) FROM leaderboards WHERE tournament_id IS NOT NULL)::int
              + (SELECT count(*) FROM accounts WHERE kind = 'pool')::int AS n`,
    );
    expect(rows?.n).toBe(0);
  });

  it('creates a tournament and its first round, moving the guarantee into the pool', async () => {
    await mint(game.developerAccountId, 25n);
    const body = valid();
    const res = await asDeveloper('POST', created(), body);
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json<Tournament>();
    expect(t).toMatchObject({
      gameId: game.gameId,
      name: 'Weekly Cup',
      entryFee: '2',
      guaranteedPool: '10',
      payoutTable: { places: [5000, 3000, 2000] },
      maxEntrants: 100,
      maxAttempts: 3,
      recurrence: '0 * * * *',
      durationSeconds: 3600,
      startsAt: body.startsAt,
      stoppedAt: null,
      createdBy: 'developer',
      scoreDisplay: 'NORMAL',
    });
    expect(t.currentRound).toMatchObject({
      number: 1,
      boardName: 'Weekly Cup #1',
      startsAt: body.startsAt,
      endsAt: new Date(Date.parse(body.startsAt) + 3_600_000).toISOString(),
      status: 'scheduled',
      closedAt: null,
      entrants: 0,
      pool: '10',
      guaranteeFunded: true,
    });
    expect((await balanceOf(api, game.developerAccountId)).available).toBe(15n * 100_000_000n);

    // Read back: the developer's, the catalog's, the game server's.
    const one = await asDeveloper('GET', `${created()}/${t.id}`);
    expect(one.json()).toEqual(t);
    const catalog = await inject('GET', '/catalog/tournaments');
    expect(catalog.json().tournaments.map((x: Tournament) => x.id)).toContain(t.id);
    const ofGame = await inject('GET', `/catalog/games/${game.gameId}/tournaments`);
    expect(ofGame.json().tournaments).toEqual([t]);
    expect((await inject('GET', `/catalog/tournaments/${t.id}`)).json()).toEqual(t);
    const token = await writeToken(api, game);
    const server = await inject(
      'GET',
      `/arcades/${game.arcadeId}/games/${game.gameId}/tournaments`,
      undefined,
      { authorization: `Bearer ${token}` },
    );
    expect(server.statusCode, server.body).toBe(200);
    expect(server.json().tournaments).toEqual([t]);

    // The round opens at its start; its board is readable like a tier's.
    api.clock.advance(61_000);
    const round = t.currentRound!;
    const detail = await inject('GET', `/catalog/tournaments/${t.id}/rounds/${round.id}`);
    expect(detail.json<TournamentRoundDetail>()).toMatchObject({
      id: round.id,
      status: 'open',
      results: [],
    });
    const board = await inject('GET', `/catalog/games/${game.gameId}/boards/${round.id}`);
    expect(board.statusCode, board.body).toBe(200);
    expect(board.json()).toMatchObject({ leaderboardId: round.id, players: 0, entries: [] });
    const page = await inject('GET', `/catalog/tournaments/${t.id}/rounds?limit=1`);
    expect(page.json<TournamentRoundPage>()).toMatchObject({
      rounds: [{ id: round.id, status: 'open' }],
      nextCursor: null,
    });
  });

  it("keeps rounds out of the game's tiers everywhere tiers are listed", async () => {
    const token = await writeToken(api, game);
    const tiers = game.tiers.map((x) => x.id);
    const haste = await inject(
      'GET',
      `/arcades/${game.arcadeId}/developergames/${game.gameId}`,
      undefined,
      { authorization: `Bearer ${token}` },
    );
    expect(haste.json().leaderboards.map((b: { id: string }) => b.id)).toEqual(tiers);
    const catalog = await inject('GET', `/catalog/games/${game.gameId}`);
    expect(catalog.json().leaderboards.map((b: { id: string }) => b.id)).toEqual(tiers);
    const list = await inject('GET', '/catalog/games');
    const listed = list.json().games.find((g: { id: string }) => g.id === game.gameId);
    expect(listed.leaderboards.map((b: { id: string }) => b.id)).toEqual(tiers);
    const admin = await asAdmin('GET', '/admin/games');
    expect(admin.statusCode, admin.body).toBe(200);
    const row = admin.json().games.find((g: { gameId: string }) => g.gameId === game.gameId);
    expect(row.tiers).toBe(2);
  });

  it('lets the operator create (funded by the arcade), list and stop tournaments', async () => {
    const arcadeAccount = api.app.arcade.record.accountId;
    const refused = await asAdmin('POST', '/admin/tournaments', {
      ...valid(),
      gameId: game.gameId,
      guaranteedPool: '1000000',
    });
    expect(refused.statusCode, refused.body).toBe(402);
    expect(refused.json().code).toBe('insufficient_funds');
    await mint(arcadeAccount, 5n);
    const res = await asAdmin('POST', '/admin/tournaments', {
      ...valid(),
      name: 'Operator Open',
      gameId: game.gameId,
      guaranteedPool: '5',
      recurrence: null,
      payoutTable: { topPercent: 10 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json<Tournament>();
    expect(t).toMatchObject({ createdBy: 'operator', recurrence: null, guaranteedPool: '5' });
    expect((await balanceOf(api, arcadeAccount)).available).toBe(0n);
    const unknown = await asAdmin('POST', '/admin/tournaments', {
      ...valid(),
      gameId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('game_not_found');

    const all = await asAdmin('GET', '/admin/tournaments');
    expect(
      all
        .json()
        .tournaments.map((x: Tournament) => x.name)
        .sort(),
    ).toEqual(['Operator Open', 'Weekly Cup']);
    const stopped = await asAdmin('POST', `/admin/tournaments/${t.id}/stop`);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().stoppedAt).toBe(api.clock.now().toISOString());
    api.clock.advance(1000);
    const again = await asAdmin('POST', `/admin/tournaments/${t.id}/stop`);
    expect(again.json().stoppedAt).toBe(stopped.json().stoppedAt);
    const missing = await asAdmin('POST', `/admin/tournaments/${game.gameId}/stop`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('tournament_not_found');
  });

  it("answers another developer's game and tournaments as not found", async () => {
    const other = await gameWithTiers(api, { costs: [1] });
    const { apiKey: otherKey } = await createDeveloper(api.app.arcade, other.developerWallet);
    const theirs = (await asDeveloper('GET', created())).json().tournaments[0] as Tournament;
    const headers = { 'api-key': otherKey };
    const list = await inject('GET', created(), undefined, headers);
    expect(list.statusCode).toBe(404);
    expect(list.json().code).toBe('game_not_found');
    const wrongGame = await inject(
      'GET',
      `/developer/games/${other.gameId}/tournaments/${theirs.id}`,
      undefined,
      headers,
    );
    expect(wrongGame.statusCode).toBe(404);
    expect(wrongGame.json().code).toBe('tournament_not_found');
    const stop = await inject('POST', `${created()}/${theirs.id}/stop`, undefined, headers);
    expect(stop.statusCode).toBe(404);
    // An unpublished game's tournaments are not in the catalog.
    const hidden = await gameWithTiers(api, { costs: [1], published: false });
    const { apiKey: hiddenKey } = await createDeveloper(api.app.arcade, hidden.developerWallet);
    const made = await inject(
      'POST',
      `/developer/games/${hidden.gameId}/tournaments`,
      { ...valid(), guaranteedPool: '0' },
      { 'api-key': hiddenKey },
    );
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json<Tournament>().id;
    expect((await inject('GET', `/catalog/tournaments/${id}`)).statusCode).toBe(404);
    const catalog = await inject('GET', '/catalog/tournaments');
    expect(catalog.json().tournaments.map((x: Tournament) => x.id)).not.toContain(id);
  });

  it('keeps a closed round readable: its pool paid, its results, its board, the prize in the history', async () => {
    const t = (await asDeveloper('GET', created()))
      .json()
      .tournaments.find((x: Tournament) => x.name === 'Weekly Cup') as Tournament;
    const round = t.currentRound!;
    const winner = await fundedPlayer(api, 2, 'Winner');
    // The round opens; the winner plays and scores; its end comes and the closer pays it.
    api.clock.advance(Date.parse(round.startsAt) + 1000 - api.clock.now().getTime());
    const closedAt = await playScoreAndClose(game, winner.playerId, round, 912);
    // The pool: the 10 HST guarantee and 70% of one 2 HST fee; one ranked player takes it all.
    const pool = '11.4';

    const detail = await inject('GET', `/catalog/tournaments/${t.id}/rounds/${round.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json<TournamentRoundDetail>()).toMatchObject({
      id: round.id,
      status: 'closed',
      closedAt: closedAt.toISOString(),
      pool,
      results: [{ place: 1, playerId: winner.playerId, name: 'Winner', score: 912, prize: pool }],
    });
    expect(detail.json<TournamentRoundDetail>().results[0]!.avatar).toContain(winner.playerId);
    // The season goes on: its next round is the current one.
    const next = (await inject('GET', `/catalog/tournaments/${t.id}`)).json<Tournament>()
      .currentRound;
    expect(next?.number).toBe(2);
    expect(Date.parse(next!.startsAt)).toBeGreaterThanOrEqual(Date.parse(round.endsAt));
    // The winner's history has the prize, with its place and its round.
    const history = await inject(
      'GET',
      `/admin/players/${winner.playerId}/activity?kind=prize`,
      undefined,
      { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    );
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().items).toEqual([
      {
        kind: 'prize',
        id: expect.any(String),
        at: closedAt.toISOString(),
        amount: pool,
        gameId: game.gameId,
        gameName: expect.any(String),
        leaderboardId: round.id,
        tierName: 'Weekly Cup #1',
        place: 1,
      },
    ]);
    const board = await inject('GET', `/catalog/games/${game.gameId}/boards/${round.id}`);
    expect(board.statusCode, board.body).toBe(200);
    const missing = await inject('GET', `/catalog/tournaments/${t.id}/rounds/${game.gameId}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('tournament_round_not_found');
    const badCursor = await inject('GET', `/catalog/tournaments/${t.id}/rounds?cursor=nope`);
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().details.field).toBe('cursor');

    // A play naming the closed round is refused; one naming the tournament goes to round 2,
    // which has not started yet.
    const player = await fundedPlayer(api, 5);
    const auth = { authorization: `Bearer ${await writeToken(api, game)}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const cases = [
      [round.id, 'tournament_closed'],
      [t.id, 'tournament_not_started'],
    ] as const;
    for (const [named, code] of cases) {
      if (named === t.id && Date.parse(next!.startsAt) <= api.clock.now().getTime()) continue;
      const res = await inject(
        'POST',
        `${base}/play`,
        { playerId: player.playerId, leaderboardId: named },
        auth,
      );
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code, details: { field: 'leaderboardId' } });
    }
    expect((await balanceOf(api, player.accountId)).available).toBe(5n * 100_000_000n);
  });

  it("lets the operator read any game's rounds, an unpublished game's closed round too", async () => {
    // A published game's rounds: the operator reads what the catalog answers.
    const weekly = (await asDeveloper('GET', created()))
      .json()
      .tournaments.find((x: Tournament) => x.name === 'Weekly Cup') as Tournament;
    for (const path of [`/${weekly.id}/rounds?limit=1`, `/${weekly.id}/rounds`]) {
      const asOperator = await asAdmin('GET', `/admin/tournaments${path}`);
      expect(asOperator.statusCode, asOperator.body).toBe(200);
      expect(asOperator.json()).toEqual(
        (await inject('GET', `/catalog/tournaments${path}`)).json(),
      );
    }
    const page = (
      await asAdmin('GET', `/admin/tournaments/${weekly.id}/rounds`)
    ).json<TournamentRoundPage>();
    expect(page.rounds.map((r) => r.number)).toEqual([2, 1]);
    const first = `/${weekly.id}/rounds/${page.rounds[1]!.id}`;
    expect((await asAdmin('GET', `/admin/tournaments${first}`)).json()).toEqual(
      (await inject('GET', `/catalog/tournaments${first}`)).json(),
    );

    // An unpublished game's tournament, played and closed: the catalog knows nothing of it.
    const hidden = await gameWithTiers(api, { costs: [1], published: false });
    const made = await asAdmin('POST', '/admin/tournaments', {
      ...valid(),
      name: 'Backroom Cup',
      gameId: hidden.gameId,
      startsAt: api.clock.now().toISOString(),
      recurrence: null,
      guaranteedPool: '0',
      payoutTable: { places: [10_000] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const t = made.json<Tournament>();
    const round = t.currentRound!;
    // An unpublished game may charge its developer's wallet (and its testers) only.
    const tester = await fundedPlayer(api, 2, 'Tester', hidden.developerWallet);
    const closedAt = await playScoreAndClose(hidden, tester.playerId, round, 77);

    expect((await inject('GET', `/catalog/tournaments/${t.id}/rounds`)).statusCode).toBe(404);
    const hiddenRound = await inject('GET', `/catalog/tournaments/${t.id}/rounds/${round.id}`);
    expect(hiddenRound.json()).toMatchObject({ code: 'tournament_not_found' });
    const rounds = await asAdmin('GET', `/admin/tournaments/${t.id}/rounds`);
    expect(rounds.statusCode, rounds.body).toBe(200);
    expect(rounds.json<TournamentRoundPage>()).toMatchObject({
      rounds: [{ id: round.id, number: 1, status: 'closed', closedAt: closedAt.toISOString() }],
      nextCursor: null,
    });
    // 70% of the one 2 HST fee is the pool; the one ranked player takes it all.
    const detail = await asAdmin('GET', `/admin/tournaments/${t.id}/rounds/${round.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json<TournamentRoundDetail>()).toMatchObject({
      id: round.id,
      status: 'closed',
      entrants: 1,
      pool: '1.4',
      results: [{ place: 1, playerId: tester.playerId, name: 'Tester', score: 77, prize: '1.4' }],
    });

    const unknownRound = await asAdmin('GET', `/admin/tournaments/${t.id}/rounds/${weekly.id}`);
    expect(unknownRound.statusCode).toBe(404);
    expect(unknownRound.json()).toMatchObject({
      code: 'tournament_round_not_found',
      details: { tournamentId: t.id, roundId: weekly.id },
    });
    const unknown = await asAdmin('GET', `/admin/tournaments/${hidden.gameId}/rounds`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      code: 'tournament_not_found',
      details: { tournamentId: hidden.gameId },
    });
    const badCursor = await asAdmin('GET', `/admin/tournaments/${t.id}/rounds?cursor=nope`);
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().details.field).toBe('cursor');
  });
});
