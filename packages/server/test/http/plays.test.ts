import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import {
  balanceOf,
  fundedPlayer,
  gameWithTiers,
  writeToken,
  type GameFixture,
} from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';

const HST = 100_000_000n;

describe.each(storeVariants())('plays and scores on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let token: string;

  beforeEach(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [1, 10] });
    token = await writeToken(api, game);
  });
  afterEach(async () => {
    await expectLedgerBalanced(api.db);
    await expectRankTreeConsistent(api.db);
    await api.close();
  });

  const post = (path: string, payload: unknown, headers: Record<string, string> = {}) =>
    api.app.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/${path}`,
      headers: { authorization: `Bearer ${token}`, ...headers },
      payload: payload as object,
    });
  const play = (playerId: string, leaderboardId = game.tiers[1]!.id, headers = {}) =>
    post('play', { playerId, leaderboardId }, headers);
  const score = (playId: string, value: number, leaderboardId = game.tiers[1]!.id, headers = {}) =>
    post('score', { playId, leaderboardId, score: value }, headers);

  it('locks the tier cost and returns the play record', async () => {
    const alice = await fundedPlayer(api, 25);
    const res = await play(alice.playerId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      playerId: alice.playerId,
      gameId: game.gameId,
      gameArcadeId: game.arcadeId,
      developerId: game.developerId,
      leaderboardId: game.tiers[1]!.id,
      cost: 10,
      deleted: false,
      deletedAt: null,
      status: 'open',
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.ilpRegistrationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    expect(await balanceOf(api, alice.accountId)).toMatchObject({
      available: 15n * HST,
      pending: 10n * HST,
    });
  });

  it('names the player the game server sent and exact amounts in a 402, not an account id', async () => {
    // The message named the player's internal account id, which the game server never saw.
    const dust = await fundedPlayer(api, 0.00000007);
    const res = await play(dust.playerId);
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBe(
      `player ${dust.playerId} can spend 0.00000007 HST but 10 HST is required`,
    );
    expect(res.json().message).not.toContain(dust.accountId);
  });

  it('refuses a play the player cannot afford with 402 and records nothing', async () => {
    const bob = await fundedPlayer(api, 9.99999999);
    const res = await play(bob.playerId);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      code: 'insufficient_funds',
      message: `player ${bob.playerId} can spend 9.99999999 HST but 10 HST is required`,
      details: {
        playerId: bob.playerId,
        accountId: bob.accountId,
        available: '9.99999999',
        required: '10',
      },
    });
    const plays = await api.db.query('SELECT id FROM plays');
    expect(plays).toHaveLength(0);
    const escrows = await api.db.query("SELECT id FROM accounts WHERE kind = 'escrow'");
    expect(escrows).toHaveLength(0);
    expect(await balanceOf(api, bob.accountId)).toMatchObject({
      available: 999_999_999n,
      pending: 0n,
    });
  });

  it("settles a score on an empty board: the leaders' 70% back to the player, 20% developer, 10% arcade", async () => {
    const alice = await fundedPlayer(api, 10);
    const opened = (await play(alice.playerId)).json();
    const res = await score(opened.id, 420);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      playId: opened.id,
      score: 420,
      leaderRank: 1,
      isWinner: true,
      leaders: [{ playerId: alice.playerId, score: 420 }],
    });
    // A generated avatar is linked, not inlined, and the API serves it.
    const avatar = new URL(res.json().leaders[0].avatar);
    expect(avatar.href).toBe(`http://127.0.0.1:8080/avatars/${alice.playerId}.svg`);
    const image = await api.app.inject({ method: 'GET', url: avatar.pathname });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/svg+xml');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(image.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg".*<\/svg>$/);
    // Nobody led when the play began: the leaders' part comes back to alice, never to the
    // developer (security review, finding 3).
    expect(await balanceOf(api, alice.accountId)).toMatchObject({
      available: 7n * HST,
      pending: 0n,
    });
    expect((await balanceOf(api, game.developerAccountId)).creditsPosted).toBe(2n * HST);
    expect((await balanceOf(api, game.arcadeAccountId)).creditsPosted).toBe(1n * HST);
    const escrow = await balanceOf(api, opened.id);
    expect(escrow).toMatchObject({ available: 0n, creditsPosted: 10n * HST });
  });

  it('pays the leaders at the time of the play 70% equally, with remainders to the arcade', async () => {
    const leaders = [
      await fundedPlayer(api, 10),
      await fundedPlayer(api, 10),
      await fundedPlayer(api, 10),
    ];
    for (const [i, leader] of leaders.entries()) {
      const p = (await play(leader.playerId)).json();
      expect((await score(p.id, 100 + i)).statusCode).toBe(200);
    }
    const devBefore = (await balanceOf(api, game.developerAccountId)).creditsPosted;
    const arcadeBefore = (await balanceOf(api, game.arcadeAccountId)).creditsPosted;
    const newcomer = await fundedPlayer(api, 10);
    const p = (await play(newcomer.playerId)).json();
    // A leader who joins after the play began does not share its payout.
    const late = await fundedPlayer(api, 10);
    expect((await score((await play(late.playerId)).json().id, 1000)).statusCode).toBe(200);
    const lateBalance = await balanceOf(api, late.accountId);
    expect((await score(p.id, 1)).statusCode).toBe(200);

    // 7 HST among 3 leaders: 233333333 units each, 1 unit left over for the arcade.
    const each = (7n * HST) / 3n;
    for (const leader of leaders) {
      const b = await balanceOf(api, leader.accountId);
      // Each leader was also paid by the plays scored after theirs and by the late play.
      expect(b.creditsPosted).toBeGreaterThanOrEqual(10n * HST + each);
    }
    expect((await balanceOf(api, late.accountId)).creditsPosted).toBe(lateBalance.creditsPosted);
    const devAfter = (await balanceOf(api, game.developerAccountId)).creditsPosted;
    const arcadeAfter = (await balanceOf(api, game.arcadeAccountId)).creditsPosted;
    // Two plays settled since the snapshot: the late one and the newcomer's; each pays 2 HST to
    // the developer and 1 HST plus remainder to the arcade.
    expect(devAfter - devBefore).toBe(4n * HST);
    expect(arcadeAfter - arcadeBefore).toBe(2n * HST + (7n * HST - 3n * each) * 2n);
    const payouts = await api.db.query<{ amount: bigint }>(
      "SELECT amount FROM transfers WHERE play_id = $1 AND reason = 'payout_leader'",
      [p.id],
    );
    expect(payouts.map((r) => BigInt(r.amount))).toEqual([each, each, each]);
  });

  it('ranks by best score per player, ties to the earlier score', async () => {
    const [a, b, c] = [
      await fundedPlayer(api, 50),
      await fundedPlayer(api, 50),
      await fundedPlayer(api, 50),
    ];
    const submit = async (who: { playerId: string }, value: number) =>
      (await score((await play(who.playerId)).json().id, value)).json();
    expect(await submit(a, 50)).toMatchObject({ leaderRank: 1 });
    expect(await submit(b, 70)).toMatchObject({ leaderRank: 1 });
    expect(await submit(c, 50)).toMatchObject({ leaderRank: 3 }); // a's 50 came first
    expect(await submit(a, 10)).toMatchObject({ leaderRank: 3 }); // b 70, c 50 beat 10
    const last = await submit(a, 80);
    expect(last).toMatchObject({ leaderRank: 1, isWinner: true });
    expect(
      last.leaders.map((l: { playerId: string; score: number }) => [l.playerId, l.score]),
    ).toEqual([
      [a.playerId, 80],
      [b.playerId, 70],
      [c.playerId, 50],
    ]);
  });

  it('refuses a second score for a play', async () => {
    const alice = await fundedPlayer(api, 10);
    const p = (await play(alice.playerId)).json();
    expect((await score(p.id, 5)).statusCode).toBe(200);
    const again = await score(p.id, 6);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'play_already_scored',
      message: `play ${p.id} already has a score`,
    });
    const rows = await api.db.query('SELECT id FROM scores WHERE play_id = $1', [p.id]);
    expect(rows).toHaveLength(1);
  });

  it("refuses a score for another tier than the play's", async () => {
    const alice = await fundedPlayer(api, 10);
    const p = (await play(alice.playerId)).json();
    const res = await score(p.id, 5, game.tiers[0]!.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('leaderboard_not_in_game');
  });

  it('expires an unscored play after the play TTL and settles its HST', async () => {
    const alice = await fundedPlayer(api, 10);
    const p = (await play(alice.playerId)).json();
    api.clock.advance(api.config.playTtlSeconds * 1000);
    token = await writeToken(api, game);
    const late = await score(p.id, 5);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('play_expired');
    expect(await api.app.arcade.settleExpiredPlays()).toBe(1);
    const [row] = await api.db.query<{ status: string }>('SELECT status FROM plays WHERE id = $1', [
      p.id,
    ]);
    expect(row?.status).toBe('expired');
    // Nobody led when the play began: the leaders' part comes back to alice, never to the
    // developer (security review, finding 3).
    expect(await balanceOf(api, alice.accountId)).toMatchObject({
      available: 7n * HST,
      pending: 0n,
    });
    expect((await balanceOf(api, game.developerAccountId)).creditsPosted).toBe(2n * HST);
    expect(await api.app.arcade.settleExpiredPlays()).toBe(0);
  });

  it('charges once for a retried play with the same Idempotency-Key', async () => {
    const alice = await fundedPlayer(api, 25);
    const first = await play(alice.playerId, game.tiers[1]!.id, { 'idempotency-key': 'k-1' });
    const second = await play(alice.playerId, game.tiers[1]!.id, { 'idempotency-key': 'k-1' });
    expect(second.statusCode).toBe(200);
    expect(second.json().id).toBe(first.json().id);
    expect(await balanceOf(api, alice.accountId)).toMatchObject({
      available: 15n * HST,
      pending: 10n * HST,
    });
    const other = await play(alice.playerId, game.tiers[0]!.id, { 'idempotency-key': 'k-1' });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
  });

  it('replays a retried score with the same Idempotency-Key', async () => {
    const alice = await fundedPlayer(api, 10);
    const p = (await play(alice.playerId)).json();
    const first = await score(p.id, 7, undefined, { 'idempotency-key': 's-1' });
    const second = await score(p.id, 7, undefined, { 'idempotency-key': 's-1' });
    expect(second.statusCode).toBe(200);
    expect(second.json().id).toBe(first.json().id);
    const changed = await score(p.id, 8, undefined, { 'idempotency-key': 's-1' });
    expect(changed.statusCode).toBe(422);
  });

  it('yields exactly 10 plays from 50 concurrent requests against a balance for 10', async () => {
    const alice = await fundedPlayer(api, 100);
    const results = await Promise.all(Array.from({ length: 50 }, () => play(alice.playerId)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 402)).toHaveLength(40);
    expect(await balanceOf(api, alice.accountId)).toMatchObject({
      available: 0n,
      pending: 100n * HST,
    });
    const [count] = await api.db.query<{ n: bigint }>('SELECT count(*)::bigint AS n FROM plays');
    expect(BigInt(count!.n)).toBe(10n);
  });

  it('keeps bests, ranks and money exact under concurrent scores on one board', async () => {
    const players = await Promise.all(Array.from({ length: 12 }, () => fundedPlayer(api, 30)));
    const opened = await Promise.all(
      players.flatMap((p) => [play(p.playerId), play(p.playerId), play(p.playerId)]),
    );
    expect(opened.map((r) => r.statusCode)).toEqual(opened.map(() => 200));
    // A seeded spread of scores, with ties, scored all at once.
    const values = opened.map((_, i) => ((i * 37) % 11) * 5);
    const scored = await Promise.all(opened.map((r, i) => score(r.json().id, values[i]!)));
    expect(scored.map((r) => r.statusCode)).toEqual(scored.map(() => 200));
    const best = new Map<string, number>();
    opened.forEach((r, i) => {
      const id = r.json().playerId as string;
      best.set(id, Math.max(best.get(id) ?? -1, values[i]!));
    });
    const rows = await api.db.query<{ player_id: string; score: number }>(
      'SELECT player_id, score FROM leaders WHERE leaderboard_id = $1',
      [game.tiers[1]!.id],
    );
    expect(new Map(rows.map((r) => [r.player_id, r.score]))).toEqual(best);
    const [moved] = await api.db.query<{ n: bigint }>(
      "SELECT count(*)::bigint AS n FROM transfers WHERE kind = 'post_pending'",
    );
    expect(BigInt(moved!.n)).toBe(36n);
  });

  it('serves the game with tiers and leaders to its write token', async () => {
    const alice = await fundedPlayer(api, 10, 'Alice');
    await score((await play(alice.playerId)).json().id, 12.5);
    const res = await api.app.inject({
      method: 'GET',
      url: `/arcades/${game.arcadeId}/developergames/${game.gameId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: game.gameId,
      playerId: game.developerId,
      scoreDisplay: 'NORMAL',
    });
    expect(body.leaderboards).toEqual([
      expect.objectContaining({
        id: game.tiers[0]!.id,
        cost: 1,
        currency: 'HST',
        formattedCostString: '1 HST',
        leaders: [],
      }),
      expect.objectContaining({
        id: game.tiers[1]!.id,
        cost: 10,
        leaders: [
          expect.objectContaining({ playerId: alice.playerId, name: 'Alice', score: 12.5 }),
        ],
      }),
    ]);
  });
});

describe.each(storeVariants())('REVERSE boards on %s', (variant) => {
  it('rank lower scores first', async () => {
    const api = await buildTestApi(variant);
    try {
      const game = await gameWithTiers(api, { costs: [1], scoreDisplay: 'REVERSE' });
      const token = await writeToken(api, game);
      const players = [
        await fundedPlayer(api, 5),
        await fundedPlayer(api, 5),
        await fundedPlayer(api, 5),
      ];
      const ranks: number[] = [];
      let leaders: { score: number }[] = [];
      for (const [i, value] of [30.5, 12, 99].entries()) {
        const headers = { authorization: `Bearer ${token}` };
        const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
        const p = await api.app.inject({
          method: 'POST',
          url: `${base}/play`,
          headers,
          payload: { playerId: players[i]!.playerId, leaderboardId: game.tiers[0]!.id },
        });
        const s = await api.app.inject({
          method: 'POST',
          url: `${base}/score`,
          headers,
          payload: { playId: p.json().id, leaderboardId: game.tiers[0]!.id, score: value },
        });
        ranks.push(s.json().leaderRank);
        leaders = s.json().leaders;
      }
      expect(ranks).toEqual([1, 1, 3]);
      expect(leaders.map((l) => l.score)).toEqual([12, 30.5, 99]);
      await expectLedgerBalanced(api.db);
    } finally {
      await api.close();
    }
  });
});
