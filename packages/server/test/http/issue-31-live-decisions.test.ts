import { afterEach, describe, expect, it } from 'vitest';
import type { PlayerNotification } from '@coinop/protocol';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
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
 * Issue 31, what live updates still lacked: a suspended game's open plays, refunded, reach their
 * players as notifications, read from the ledger (a round's unscored entries were refunded at its
 * close too, until the close settled them as expired plays: no refund is listed for them); and
 * the operator's decision on a publish
 * request reaches the developer's own stream (their wallet's web session) without a reload.
 */

const notificationOf = (kind: PlayerNotification['kind']) => (e: ReadEvent) =>
  e.event === 'notification' && (e.data as PlayerNotification).kind === kind;

describe.each(storeVariants())('refunds and publish decisions, live, on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  const streams: SseClient[] = [];

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  async function setUp() {
    s = await buildTestSignin(variant, { faucetHst: 10 });
    api = testApiOf(s);
    return listening(s.api);
  }

  const open = async (url: string, token: string, lastEventId?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const stream = await SseClient.open(url, headers);
    streams.push(stream);
    expect(stream.status, stream.body).toBe(200);
    return stream;
  };

  it("refunds nothing to a round's unscored entrant at the close, and lists no refund", async () => {
    const base = await setUp();
    const game = await gameWithTiers(api, { costs: [1] });
    const mint = s.api.arcade.record.mintAccountId;
    await mintTo(s.db, mint, game.developerAccountId, 10n * 100_000_000n, s.clock.now());
    const now = s.clock.now();
    const round = await tournamentWithRound(s.db, {
      gameId: game.gameId,
      funderAccountId: game.developerAccountId,
      name: 'Weekly Cup',
      entryFeeUnits: 150_000_000n,
      payoutTable: { places: [10000] },
      startsAt: new Date(now.getTime() - 60_000),
      durationSeconds: 3600,
      now,
    });
    s.api.arcade.games.invalidate(game.gameId);
    const wallet = newWallet();
    const alice = await walletSignIn(s.auth, wallet);
    const faucet = await s.api.inject({
      method: 'POST',
      url: '/player/faucet',
      headers: { authorization: `Bearer ${alice.access_token}` },
    });
    expect(faucet.statusCode, faucet.body).toBe(200);
    const stream = await open(`${base}/player/events`, alice.access_token);
    const first = await stream.next((e) => e.event === 'balance');
    expect(first.data).toMatchObject({ balance: '10' });

    // Alice enters the round (1.5 HST) and never scores; Bob scores, so the round has a winner.
    const token = await writeToken(api, game);
    const headers = { authorization: `Bearer ${token}` };
    const url = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const enter = async (playerId: string) => {
      const play = await s.api.inject({
        method: 'POST',
        url: `${url}/play`,
        headers,
        payload: { playerId, leaderboardId: round.roundId },
      });
      expect(play.statusCode, play.body).toBe(200);
      return play.json<{ id: string }>().id;
    };
    const alicesPlay = await enter(alice.playerId);
    const bob = await fundedPlayer(api, 5, 'bob');
    const score = await s.api.inject({
      method: 'POST',
      url: `${url}/score`,
      headers,
      payload: { playId: await enter(bob.playerId), leaderboardId: round.roundId, score: 5 },
    });
    expect(score.statusCode, score.body).toBe(200);

    s.clock.advance(3600_000);
    const { closed } = await s.api.arcade.closer.closeDue(s.api.log);
    expect(closed.map((c) => [c.roundId, c.expiredPlays, c.voidedPlays])).toEqual([
      [round.roundId, 1, 0],
    ]);
    // Her entry is settled as an expired play (docs/concepts/tournaments.md, "Fees and the
    // pool"): its fee is spent, not given back, and nothing is left locked.
    const [account] = await s.db.query<{ posted: string; pending: string }>(
      `SELECT (credits_posted - debits_posted)::text AS posted, debits_pending::text AS pending
       FROM accounts a JOIN players p ON p.account_id = a.id WHERE p.id = $1`,
      [alice.playerId],
    );
    expect(account).toEqual({ posted: '850000000', pending: '0' });
    const [played] = await s.db.query<{ status: string }>(
      'SELECT status FROM plays WHERE id = $1',
      [alicesPlay],
    );
    expect(played?.status).toBe('expired');

    // Her menu lists no refund (an hour passed: alice signs in again).
    const again = await walletSignIn(s.auth, wallet);
    const list = await s.api.inject({
      method: 'GET',
      url: '/player/notifications',
      headers: { authorization: `Bearer ${again.access_token}` },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(
      list
        .json<{ notifications: PlayerNotification[] }>()
        .notifications.filter((n) => n.kind === 'refund'),
    ).toEqual([]);
  });

  it("tells a player of their open play's refund when the operator suspends the game", async () => {
    const base = await setUp();
    const game = await gameWithTiers(api, { costs: [2] });
    const wallet = newWallet();
    const alice = await walletSignIn(s.auth, wallet);
    const faucet = await s.api.inject({
      method: 'POST',
      url: '/player/faucet',
      headers: { authorization: `Bearer ${alice.access_token}` },
    });
    expect(faucet.statusCode, faucet.body).toBe(200);
    const token = await writeToken(api, game);
    const play = await s.api.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
      headers: { authorization: `Bearer ${token}` },
      payload: { playerId: alice.playerId, leaderboardId: game.tiers[0]!.id },
    });
    expect(play.statusCode, play.body).toBe(200);
    const stream = await open(`${base}/player/events`, alice.access_token);
    await stream.next((e) => e.event === 'balance');

    const suspended = await s.api.inject({
      method: 'POST',
      url: `/admin/games/${game.gameId}/suspend`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const refund = await stream.next(notificationOf('refund'));
    expect(refund.data).toMatchObject({
      kind: 'refund',
      amount: '2',
      playId: play.json<{ id: string }>().id,
      gameId: game.gameId,
      tierName: 'Tier 1',
    } satisfies Partial<PlayerNotification>);
    await stream.next(
      (e) => e.event === 'balance' && (e.data as { balance: string }).balance === '10',
    );
  });

  it("tells the developer's own stream of a declined, then an approved, publish request", async () => {
    const base = await setUp();
    const wallet = newWallet();
    const dev = await walletSignIn(s.auth, wallet);
    const game = await gameWithTiers(api, {
      costs: [1],
      published: false,
      developerWallet: wallet.address,
    });
    const other = await walletSignIn(s.auth, newWallet());
    const devStream = await open(`${base}/player/events`, dev.access_token);
    const otherStream = await open(`${base}/player/events`, other.access_token);
    await devStream.next((e) => e.event === 'balance');
    await otherStream.next((e) => e.event === 'balance');

    const ask = async () => {
      const res = await s.api.inject({
        method: 'POST',
        url: `/developer/games/${game.gameId}/publish-requests`,
        headers: { authorization: `Bearer ${dev.access_token}` },
        payload: { note: 'Ready for players' },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json<{ requestId: string }>().requestId;
    };
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const declined = await s.api.inject({
      method: 'POST',
      url: `/admin/publish-requests/${await ask()}/decline`,
      headers: admin,
      payload: { reason: 'Add a description of the controls' },
    });
    expect(declined.statusCode, declined.body).toBe(200);
    const no = await devStream.next(notificationOf('publish_declined'));
    expect(no.data).toMatchObject({
      kind: 'publish_declined',
      amount: '0',
      gameId: game.gameId,
      reason: 'Add a description of the controls',
    } satisfies Partial<PlayerNotification>);

    const approved = await s.api.inject({
      method: 'POST',
      url: `/admin/publish-requests/${await ask()}/approve`,
      headers: admin,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const yes = await devStream.next(notificationOf('publish_approved'));
    expect(yes.data).toMatchObject({ kind: 'publish_approved', gameId: game.gameId, reason: null });

    // Another player hears of neither; the developer's menu lists both, newest first.
    await new Promise((r) => setTimeout(r, 300));
    expect(otherStream.events.filter((e) => e.event === 'notification')).toEqual([]);
    const list = await s.api.inject({
      method: 'GET',
      url: '/player/notifications',
      headers: { authorization: `Bearer ${dev.access_token}` },
    });
    expect(list.json<{ notifications: PlayerNotification[] }>().notifications).toEqual([
      yes.data,
      no.data,
    ]);
    // A stream resuming from the decline is sent the approval, and not the decline again.
    const resumed = await open(`${base}/player/events`, dev.access_token, no.id!);
    await resumed.next(notificationOf('publish_approved'));
    expect(resumed.events.filter(notificationOf('publish_declined'))).toEqual([]);
  });
});
