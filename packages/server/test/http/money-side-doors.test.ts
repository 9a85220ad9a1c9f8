import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import {
  balanceOf,
  fundedPlayer,
  gameWithTiers,
  writeToken,
  type GameFixture,
} from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';
import { mintHst } from '../../src/services/admin-hst.js';
import { chainConfigFor, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

const HST = 100_000_000n;

/**
 * Side doors to a player's HST through the HTTP API, as a malicious developer, game server or
 * player would try them: races the suite's other tests do not run (a score sent many times at
 * once, plays racing the revocation of their allowance), split between two API processes on one
 * database as a deployment runs them, and a game's write token aimed at another game's play.
 * Each must leave every balance exact and the ledger balanced.
 */
describe.each(storeVariants())('money side doors on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  /** A second API process on the same database, with its own queues and caches. */
  let other: FastifyInstance;

  beforeEach(async () => {
    s = await buildTestSignin(variant);
    api = testApiOf(s);
    other = await s.anotherApi();
  });
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
    await other.close();
    await s.close();
  });

  /** The game server of `game`: its write token on its own routes, through `app`. */
  async function gameServer(game: GameFixture, app: FastifyInstance = s.api) {
    const headers = { authorization: `Bearer ${await writeToken(api, game)}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    return {
      play: (playerId: string, leaderboardId = game.tiers[0]!.id, key?: string) =>
        app.inject({
          method: 'POST',
          url: `${base}/play`,
          headers: { ...headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
          payload: { playerId, leaderboardId },
        }),
      score: (
        playId: string,
        score: number,
        leaderboardId = game.tiers[0]!.id,
        key?: string,
        path = base,
      ) =>
        app.inject({
          method: 'POST',
          url: `${path}/score`,
          headers: { ...headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
          payload: { playId, leaderboardId, score },
        }),
      get: (url: string) => app.inject({ method: 'GET', url, headers }),
    };
  }

  /** A signed-in player holding `hst` HST, with their web session's headers. */
  async function signedInPlayer(hst: bigint) {
    const session = await walletSignIn(s.auth, newWallet());
    if (hst > 0n) await mintHst(s.api.arcade, { id: session.playerId, amountUnits: hst * HST });
    const { accountId } = await s.api.arcade.reads.player(session.playerId);
    return {
      playerId: session.playerId,
      accountId,
      headers: { authorization: `Bearer ${session.access_token}` },
    };
  }

  it('settles a play once when 20 scores for it race, with distinct idempotency keys or none', async () => {
    const game = await gameWithTiers(api, { costs: [10], published: false });
    const servers = [await gameServer(game, s.api), await gameServer(game, other)];
    // The developer's own wallet: an insider of the unpublished game, so no allowance is needed.
    const dev = await fundedPlayer(api, 10, 'Dev', game.developerWallet);
    const opened = await servers[0]!.play(dev.playerId);
    expect(opened.statusCode, opened.body).toBe(200);
    const playId = opened.json<{ id: string }>().id;

    // Half to each process; every fourth with an idempotency key of its own.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        servers[i % 2]!.score(playId, 100 + i, undefined, i % 4 < 2 ? `race-${i}` : undefined),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    for (const refused of results.filter((r) => r.statusCode !== 200)) {
      expect(refused.json<{ code: string }>().code).toBe('play_already_scored');
    }
    // Settled once: the player's lock posted, 90% to the developer (the board was empty), 10%
    // to the arcade.
    // Settled once: nobody led the tier, so the leaders' 7 HST came back to the player once.
    expect(await balanceOf(api, dev.accountId)).toMatchObject({ available: 7n * HST, pending: 0n });
    expect((await balanceOf(api, game.developerAccountId)).creditsPosted).toBe(2n * HST);
    expect((await balanceOf(api, game.arcadeAccountId)).creditsPosted).toBe(1n * HST);
    const scores = await s.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM scores WHERE play_id = $1',
      [playId],
    );
    expect(Number(scores[0]!.n)).toBe(1);
  });

  it("answers another game's write token as for an unknown play, and leaves the play open", async () => {
    const victimGame = await gameWithTiers(api, { costs: [10], published: false });
    const victimServer = await gameServer(victimGame);
    const dev = await fundedPlayer(api, 10, 'Dev', victimGame.developerWallet);
    const playId = (await victimServer.play(dev.playerId)).json<{ id: string }>().id;

    // A second developer's game server, with its own write token, names the victim's play.
    const attacker = await gameWithTiers(api, { costs: [10], published: false });
    const attackerServer = await gameServer(attacker);
    const own = `/arcades/${attacker.arcadeId}/games/${attacker.gameId}`;
    const onOwnPath = await attackerServer.score(playId, 1, victimGame.tiers[0]!.id);
    expect(onOwnPath.statusCode).toBe(404);
    expect(onOwnPath.json()).toMatchObject({ code: 'play_not_found' });
    const onOwnTier = await attackerServer.score(playId, 1, attacker.tiers[0]!.id);
    expect(onOwnTier.statusCode).toBe(404);
    expect(onOwnTier.json()).toMatchObject({ code: 'play_not_found' });
    const read = await attackerServer.get(`${own}/play/${playId}/transaction`);
    expect(read.statusCode).toBe(404);
    expect(read.json()).toMatchObject({ code: 'play_not_found' });
    const onVictimPath = await attackerServer.score(
      playId,
      1,
      victimGame.tiers[0]!.id,
      undefined,
      `/arcades/${victimGame.arcadeId}/games/${victimGame.gameId}`,
    );
    expect(onVictimPath.statusCode).toBe(404);
    expect(onVictimPath.json()).toMatchObject({ code: 'game_not_found' });

    // The play is still open and its HST still locked; its own game scores it.
    expect(await balanceOf(api, dev.accountId)).toMatchObject({
      available: 0n,
      pending: 10n * HST,
    });
    expect((await attackerServer.get(`${own}/play/${playId}`)).statusCode).toBe(404);
    expect((await victimServer.score(playId, 5)).statusCode).toBe(200);
    expect(await balanceOf(api, dev.accountId)).toMatchObject({ available: 7n * HST, pending: 0n });
    expect((await balanceOf(api, victimGame.developerAccountId)).creditsPosted).toBe(2n * HST);
    expect((await balanceOf(api, attacker.developerAccountId)).creditsPosted).toBe(0n);
  });

  it('opens plays racing the revocation of their allowance within what was allowed, and none after', async () => {
    const game = await gameWithTiers(api, { costs: [1] });
    const servers = [await gameServer(game, s.api), await gameServer(game, other)];
    const player = await signedInPlayer(100n);
    const granted = await s.api.inject({
      method: 'PUT',
      url: `/player/allowances/${game.gameId}`,
      headers: player.headers,
      payload: { dailyLimit: '5' },
    });
    expect(granted.statusCode, granted.body).toBe(200);

    // Plays through both processes; the revocation through the second, between them.
    const plays = Array.from({ length: 20 }, (_, i) => servers[i % 2]!.play(player.playerId));
    const revoked = other.inject({
      method: 'DELETE',
      url: `/player/allowances/${game.gameId}`,
      headers: player.headers,
    });
    const [results, revocation] = await Promise.all([Promise.all(plays), revoked]);
    expect(revocation.statusCode, revocation.body).toBe(200);
    const codes = results.map((r) => r.statusCode);
    const opened = codes.filter((c) => c === 200).length;
    expect(opened).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c !== 200).every((c) => c === 403)).toBe(true);
    for (const refused of results.filter((r) => r.statusCode !== 200)) {
      expect(refused.json<{ code: string }>().code).toBe('consent_required');
    }
    // What the plays locked is exactly what opened, never more than the allowance.
    expect(await balanceOf(api, player.accountId)).toEqual({
      available: (100n - BigInt(opened)) * HST,
      pending: BigInt(opened) * HST,
      creditsPosted: 100n * HST,
    });
    const allowance = await s.api.inject({
      method: 'GET',
      url: `/player/allowances/${game.gameId}`,
      headers: player.headers,
    });
    expect(allowance.json()).toMatchObject({ dailyLimit: '0', spentToday: String(opened) });

    // Once revoked, nothing more opens.
    const after = await servers[0]!.play(player.playerId);
    expect(after.statusCode).toBe(403);
    expect(after.json()).toMatchObject({ code: 'consent_required' });
    const [count] = await s.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM plays WHERE player_id = $1',
      [player.playerId],
    );
    expect(Number(count!.n)).toBe(opened);
  });
});

describe.each(storeVariants())('withdrawals racing for the last HST on %s', (variant) => {
  let chain: ArcadeChain;
  let s: TestSignin;
  beforeAll(async () => {
    chain = await startArcadeChain();
  });
  afterAll(() => chain.stop());
  beforeEach(async () => {
    const vault = await chain.newVault();
    s = await buildTestSignin(variant, {
      chain: chainConfigFor(chain, vault, { confirmations: 0 }),
    });
    // The watcher has read the vault: withdrawals are taken.
    await s.api.arcade.chain!.runOnce();
  });
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  it('reserves the last 10 HST once, for one of 10 withdrawals and 10 plays sent at once', async () => {
    const api = testApiOf(s);
    const game = await gameWithTiers(api, { costs: [10] });
    const token = await writeToken(api, game);
    const session = await walletSignIn(s.auth, newWallet());
    const headers = { authorization: `Bearer ${session.access_token}` };
    await mintHst(s.api.arcade, { id: session.playerId, amountUnits: 10n * HST });
    const { accountId } = await s.api.arcade.reads.player(session.playerId);
    const granted = await s.api.inject({
      method: 'PUT',
      url: `/player/allowances/${game.gameId}`,
      headers,
      payload: { dailyLimit: '100' },
    });
    expect(granted.statusCode, granted.body).toBe(200);

    const to = newWallet().address;
    const withdrawals = Array.from({ length: 10 }, () =>
      s.api.inject({
        method: 'POST',
        url: '/player/withdrawals',
        headers,
        payload: { amount: '10', to },
      }),
    );
    const plays = Array.from({ length: 10 }, () =>
      s.api.inject({
        method: 'POST',
        url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
        headers: { authorization: `Bearer ${token}` },
        payload: { playerId: session.playerId, leaderboardId: game.tiers[0]!.id },
      }),
    );
    const results = await Promise.all([...withdrawals, ...plays]);
    const taken = results.filter((r) => r.statusCode === 200 || r.statusCode === 202);
    expect(taken).toHaveLength(1);
    for (const refused of results.filter((r) => !taken.includes(r))) {
      expect(refused.statusCode, refused.body).toBe(402);
      expect(refused.json<{ code: string }>().code).toBe('insufficient_funds');
    }
    expect(await balanceOf(api, accountId)).toEqual({
      available: 0n,
      pending: 10n * HST,
      creditsPosted: 10n * HST,
    });
    const [rows] = await s.db.query<{ withdrawals: string; plays: string }>(
      `SELECT (SELECT count(*) FROM chain_withdrawals WHERE account_id = $1) AS withdrawals,
              (SELECT count(*) FROM plays WHERE player_id = $2) AS plays`,
      [accountId, session.playerId],
    );
    expect(Number(rows!.withdrawals) + Number(rows!.plays)).toBe(1);
  });
});
