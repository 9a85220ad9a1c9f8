import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalMessage, type ActivityItem, type ActivityPage } from '@coinop/protocol';
import { publish } from '../../src/services/admin.js';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';

/** Issue 17: the signed-in player's history, merged newest first, a page at a time. */
describe.each(storeVariants())("a player's activity on %s", (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let game: GameFixture;
  let token: string;
  let me: { playerId: string; token: string };
  let meWallet: string;
  let rival: { playerId: string };

  const asMe = (url: string) =>
    s.api.inject({ method: 'GET', url, headers: { authorization: `Bearer ${me.token}` } });

  async function playAndScore(playerId: string, score: number | null) {
    const headers = { authorization: `Bearer ${token}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const leaderboardId = game.tiers[0]!.id;
    const play = await s.api.inject({
      method: 'POST',
      url: `${base}/play`,
      headers,
      payload: { playerId, leaderboardId },
    });
    expect(play.statusCode, play.body).toBe(200);
    if (score !== null) {
      const res = await s.api.inject({
        method: 'POST',
        url: `${base}/score`,
        headers,
        payload: { playId: play.json().id, leaderboardId, score },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    s.clock.advance(1000);
  }

  async function walk(limit: number, query = ''): Promise<ActivityPage[]> {
    const pages: ActivityPage[] = [];
    let cursor: string | null = null;
    do {
      const after: string = cursor === null ? '' : `&cursor=${cursor}`;
      const res = await asMe(`/player/activity?limit=${limit}${query}${after}`);
      expect(res.statusCode, res.body).toBe(200);
      pages.push(res.json<ActivityPage>());
      cursor = pages.at(-1)!.nextCursor;
    } while (cursor !== null);
    return pages;
  }

  beforeAll(async () => {
    s = await buildTestSignin(variant, { faucetHst: 100 });
    api = testApiOf(s);
    game = await gameWithTiers(api, { costs: [10], scoreDisplay: 'NORMAL' });
    await publish(s.api.arcade, game.gameId);
    token = await writeToken(api, game);
    const wallet = newWallet();
    const signedIn = await walletSignIn(s.auth, wallet);
    me = { playerId: signedIn.playerId, token: signedIn.access_token };
    meWallet = wallet.address;
    rival = await fundedPlayer(api, 1000, 'Rival');

    // A faucet grant, then plays: the first leads the board, so the rival's plays pay it.
    const faucet = await s.api.inject({
      method: 'POST',
      url: '/player/faucet',
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(faucet.statusCode, faucet.body).toBe(200);
    s.clock.advance(1000);
    await playAndScore(me.playerId, 900);
    for (const score of [100, 200]) await playAndScore(rival.playerId, score);
    for (const score of [10, 20, 30, 40, 50]) await playAndScore(me.playerId, score);
    await playAndScore(me.playerId, null); // still open
    const gameName = (await s.api.arcade.reads.gameView(game.gameId)).game.name;
    const nonce = randomUUID();
    const purchase = await s.api.inject({
      method: 'POST',
      url: `/player/games/${game.gameId}/purchases`,
      headers: { authorization: `Bearer ${me.token}` },
      payload: {
        amount: '1.5',
        nonce,
        signature: await wallet.signMessage({
          message: approvalMessage({
            kind: 'purchase',
            gameId: game.gameId,
            gameName,
            amountUnits: 150_000_000n,
            nonce,
          }),
        }),
      },
    });
    expect(purchase.statusCode, purchase.body).toBe(201);
  });
  afterAll(async () => {
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  it('merges plays, scores, payouts, payments and grants newest first, across pages', async () => {
    const pages = await walk(4);
    const items = pages.flatMap((p) => p.items);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.slice(0, -1).every((p) => p.items.length === 4)).toBe(true);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    const times = items.map((i) => Date.parse(i.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const count = (kind: string) => items.filter((i) => i.kind === kind).length;
    // The leader's share of each settled play: the rival's two and this player's own five
    // (they lead the board, so their own later plays pay them too).
    // The first play found the board empty: nobody to pay as a leader, so its leaders' part (70%
    // of 10 HST) came back to this player as a line of its own.
    expect([
      count('play'),
      count('payout'),
      count('returned'),
      count('payment'),
      count('grant'),
    ]).toEqual([7, 7, 1, 1, 1]);
    expect(items.length).toBe(17);
    const firstPlay = items.filter((i) => i.kind === 'play').at(-1)!;
    expect(items.find((i) => i.kind === 'returned')).toEqual({
      kind: 'returned',
      id: expect.any(String),
      at: expect.any(String),
      amount: '7',
      gameId: game.gameId,
      gameName: expect.any(String),
      leaderboardId: game.tiers[0]!.id,
      tierName: game.tiers[0]!.name,
      playId: firstPlay.id,
      status: 'paid',
      releaseAt: null,
      voidReason: null,
      paidTo: 'balance',
      txHash: null,
    });
    const [payment, open] = items as [ActivityItem, ActivityItem];
    const lastScored = items.find((i) => i.kind === 'play' && i.status === 'scored');
    expect(payment).toMatchObject({ kind: 'payment', amount: '1.5', gameId: game.gameId });
    expect(open).toMatchObject({
      kind: 'play',
      status: 'open',
      score: null,
      rank: null,
      cost: '10',
    });
    // When the open play's time runs out, for the history and the game page to say so.
    expect(open.kind === 'play' && Date.parse(open.expiresAt) - Date.parse(open.at)).toBe(
      s.config.playTtlSeconds * 1000,
    );
    expect(lastScored).toMatchObject({
      kind: 'play',
      status: 'scored',
      score: 50,
      rank: 2,
      leaderboardId: game.tiers[0]!.id,
      tierName: game.tiers[0]!.name,
      scoreUnit: '',
    });
    const payouts = items.filter((i) => i.kind === 'payout');
    // 70% of each 10 HST play goes to its leaders: all to this player while they lead alone,
    // half once the rival is on the board too. Exact decimal strings.
    expect(new Set(payouts.map((p) => p.kind === 'payout' && p.amount))).toEqual(
      new Set(['7', '3.5']),
    );
    expect(payouts[0]).toMatchObject({ gameId: game.gameId, tierName: game.tiers[0]!.name });
    expect(items.at(-1)).toMatchObject({ kind: 'grant', amount: '100' });
    // Nothing of the rival's own: their plays are not in this player's history.
    expect(items.filter((i) => i.kind === 'play')).toHaveLength(7);
  });

  it('filters by kind', async () => {
    const only = (await walk(2, '&kind=payout,grant')).flatMap((p) => p.items);
    expect(only.map((i) => i.kind)).toEqual([...Array<string>(7).fill('payout'), 'grant']);
    const returned = (await walk(2, '&kind=returned')).flatMap((p) => p.items);
    expect(returned.map((i) => i.kind === 'returned' && i.amount)).toEqual(['7']);
    const plays = (await walk(100, '&kind=play')).flatMap((p) => p.items);
    expect(plays).toHaveLength(7);
  });

  it('refuses a bad cursor, limit or kind with 400 naming the field', async () => {
    for (const [query, field] of [
      ['cursor=nope', 'cursor'],
      [`cursor=${Buffer.from(`b1.1.1.${randomUUID()}`).toString('base64url')}`, 'cursor'],
      // Instants no row has: Postgres refused them with an error (a 500 before).
      [
        `cursor=${Buffer.from(`a1.${'9'.repeat(20)}.${randomUUID()}`).toString('base64url')}`,
        'cursor',
      ],
      [`cursor=${Buffer.from(`a1.-5.${randomUUID()}`).toString('base64url')}`, 'cursor'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['kind=plays', 'kind'],
      ['kind=play,', 'kind'],
    ] as const) {
      const res = await asMe(`/player/activity?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', details: { field } });
    }
  });

  describe("the operator's read: GET /admin/players/{player}/activity", () => {
    const asAdmin = (url: string) =>
      s.api.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });

    it("pages through the same lines as the player's own read, by id or by wallet", async () => {
      const own = (await walk(5)).flatMap((p) => p.items);
      for (const ref of [me.playerId, meWallet, meWallet.toUpperCase().replace('0X', '0x')]) {
        const items: ActivityItem[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const after: string = cursor === null ? '' : `&cursor=${cursor}`;
          const res = await asAdmin(`/admin/players/${ref}/activity?limit=5${after}`);
          expect(res.statusCode, res.body).toBe(200);
          const page = res.json<ActivityPage>();
          items.push(...page.items);
          cursor = page.nextCursor;
          pages += 1;
        } while (cursor !== null);
        expect(pages, ref).toBe(4);
        expect(items, ref).toEqual(own);
      }
      const plays = await asAdmin(`/admin/players/${rival.playerId}/activity?kind=play`);
      expect(plays.json<ActivityPage>().items.map((i) => i.kind === 'play' && i.score)).toEqual([
        200, 100,
      ]);
    });

    it('answers 404 for no such player and 400 naming a bad field, and needs the admin token', async () => {
      const missing = await asAdmin(`/admin/players/${randomUUID()}/activity`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 'player_not_found' });
      const noWallet = await asAdmin(`/admin/players/${newWallet().address}/activity`);
      expect(noWallet.statusCode).toBe(404);
      for (const [query, field] of [
        ['cursor=nope', 'cursor'],
        [
          `cursor=${Buffer.from(`a1.${2n ** 63n - 1n}.${randomUUID()}`).toString('base64url')}`,
          'cursor',
        ],
        ['limit=101', 'limit'],
        ['kind=plays', 'kind'],
      ] as const) {
        const res = await asAdmin(`/admin/players/${me.playerId}/activity?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json()).toMatchObject({ code: 'validation_failed', details: { field } });
      }
      const badRef = await asAdmin('/admin/players/nobody/activity');
      expect(badRef.statusCode).toBe(400);
      expect(badRef.json()).toMatchObject({
        code: 'validation_failed',
        details: { field: 'player' },
      });
      const asPlayer = await s.api.inject({
        method: 'GET',
        url: `/admin/players/${me.playerId}/activity`,
        headers: { authorization: `Bearer ${me.token}` },
      });
      expect(asPlayer.statusCode).toBe(401);
    });
  });

  it('is empty for a new player, and needs their token', async () => {
    const other = await walletSignIn(s.auth, newWallet());
    const res = await s.api.inject({
      method: 'GET',
      url: '/player/activity',
      headers: { authorization: `Bearer ${other.access_token}` },
    });
    expect(res.json()).toEqual({ items: [], nextCursor: null });
    expect((await s.api.inject({ method: 'GET', url: '/player/activity' })).statusCode).toBe(401);
  });
});
