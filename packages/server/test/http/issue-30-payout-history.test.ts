import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityItem, ActivityPage } from '@coinop/protocol';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';

/**
 * Issue 30: a leader payout's line in the player's history says where it stands: paid, held
 * until its hold ends, or voided with the reason of the score void that reversed it (the play's
 * new payouts are lines of their own).
 */
const HOLD_SECONDS = 3600;

type Payout = Extract<ActivityItem, { kind: 'payout' }>;

describe.each(storeVariants())('payout lines in the history on %s', (variant) => {
  let s: TestSignin;
  let game: GameFixture;
  let token: string;

  afterEach(async () => {
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  async function playAndScore(
    playerId: string,
    score: number,
  ): Promise<{ play: string; score: string }> {
    const headers = { authorization: `Bearer ${token}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const leaderboardId = game.tiers[0]!.id;
    s.clock.advance(1000);
    const play = await s.api.inject({
      method: 'POST',
      url: `${base}/play`,
      headers,
      payload: { playerId, leaderboardId },
    });
    expect(play.statusCode, play.body).toBe(200);
    s.clock.advance(1000);
    const res = await s.api.inject({
      method: 'POST',
      url: `${base}/score`,
      headers,
      payload: { playId: play.json().id, leaderboardId, score },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { play: play.json().id, score: res.json().id };
  }

  const payoutsOf = (page: ActivityPage) =>
    page.items
      .filter((i): i is Payout => i.kind === 'payout')
      .map((p) => ({
        amount: p.amount,
        playId: p.playId,
        status: p.status,
        releaseAt: p.releaseAt,
        voidReason: p.voidReason,
      }));

  it('shows a payout paid, held until its release, and voided with the reason', async () => {
    s = await buildTestSignin(variant, { payoutHoldSeconds: HOLD_SECONDS, faucetHst: 10 });
    const api: TestApi = {
      app: s.api,
      db: s.db,
      clock: s.clock,
      config: s.config,
      close: () => s.close(),
    };
    game = await gameWithTiers(api, { costs: [1], leadersMax: 3 });
    token = await writeToken(api, game);
    const wallet = newWallet();
    const signedIn = await walletSignIn(s.auth, wallet);
    const alice = { playerId: signedIn.playerId, token: signedIn.access_token };
    // Tokens last less than the hold: both are issued again after the clock moves on.
    const renewTokens = async () => {
      token = await writeToken(api, game);
      alice.token = (await walletSignIn(s.auth, wallet)).access_token;
    };
    const faucet = await s.api.inject({
      method: 'POST',
      url: '/player/faucet',
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(faucet.statusCode, faucet.body).toBe(200);
    const [dave, xavier, bob] = await Promise.all(
      ['dave', 'xavier', 'bob'].map((n) => fundedPlayer(api, 10, n)),
    );

    // Dave's play pays alice, the only leader, 0.7 HST; its hold ends and it is paid.
    await playAndScore(alice.playerId, 50);
    const davesPlay = (await playAndScore(dave!.playerId, 0)).play;
    s.clock.advance(HOLD_SECONDS * 1000);
    expect(await s.api.arcade.releaseHeldPayouts()).toBe(2);
    await renewTokens();

    // Xavier's play pays alice and dave a half each; then bob's pays xavier, alice and dave a
    // third each. Both held for an hour.
    const xaviers = await playAndScore(xavier!.playerId, 999);
    const cheat = xaviers.score;
    const xaviersRelease = new Date(s.clock.now().getTime() + HOLD_SECONDS * 1000).toISOString();
    const bobsPlay = (await playAndScore(bob!.playerId, 1)).play;
    const releaseAt = new Date(s.clock.now().getTime() + HOLD_SECONDS * 1000).toISOString();
    const asAlice = async () => {
      const res = await s.api.inject({
        method: 'GET',
        url: '/player/activity?kind=payout',
        headers: { authorization: `Bearer ${alice.token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return payoutsOf(res.json<ActivityPage>());
    };
    const paid = {
      amount: '0.7',
      playId: davesPlay,
      status: 'paid',
      releaseAt: null,
      voidReason: null,
    };
    const fromXavier = {
      amount: '0.35',
      playId: xaviers.play,
      status: 'held',
      releaseAt: xaviersRelease,
      voidReason: null,
    };
    expect(await asAlice()).toEqual([
      { amount: '0.23333333', playId: bobsPlay, status: 'held', releaseAt, voidReason: null },
      fromXavier,
      paid,
    ]);

    // The void re-settles bob's play to alice and dave: alice's third is voided, a half held.
    s.clock.advance(60_000);
    const res = await s.api.inject({
      method: 'POST',
      url: `/admin/scores/${cheat}/void`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { reason: 'impossible score' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await asAlice()).toEqual([
      { amount: '0.35', playId: bobsPlay, status: 'held', releaseAt, voidReason: null },
      {
        amount: '0.23333333',
        playId: bobsPlay,
        status: 'voided',
        releaseAt: null,
        voidReason: 'impossible score',
      },
      // Xavier's own play was led by alice and dave: the void leaves it as it was.
      fromXavier,
      paid,
    ]);

    // The operator reads the cheater's: their payout from bob's play voided, nothing new.
    const theirs = await s.api.inject({
      method: 'GET',
      url: `/admin/players/${xavier!.playerId}/activity?kind=payout`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(payoutsOf(theirs.json<ActivityPage>())).toEqual([
      {
        amount: '0.23333333',
        playId: bobsPlay,
        status: 'voided',
        releaseAt: null,
        voidReason: 'impossible score',
      },
    ]);

    // The hold ends: the half is paid like any other.
    s.clock.advance(HOLD_SECONDS * 1000);
    expect(await s.api.arcade.releaseHeldPayouts()).toBe(2);
    await renewTokens();
    expect((await asAlice())[0]).toEqual({
      amount: '0.35',
      playId: bobsPlay,
      status: 'paid',
      releaseAt: null,
      voidReason: null,
    });
  });
});
