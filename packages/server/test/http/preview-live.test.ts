import { afterEach, describe, expect, it } from 'vitest';
import type { LiveBoard } from '@coinop/protocol';
import type { TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { gameWithTiers, writeToken } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';
import { listening, SseClient } from '../fixtures/sse-client.js';

/**
 * The preview of an unpublished game (its developer's, in the arcade) asked for
 * `/player/events?gameId=` and got 404, so its board did not move live. The player stream now
 * carries the boards of a game the player may preview (its developer, an accepted tester), as
 * `GET /player/games/{gameId}` shows it to them; anyone else still gets 404.
 */
describe.each(storeVariants())('live boards of a preview on %s', (variant) => {
  let s: TestSignin;
  const streams: SseClient[] = [];

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  const open = async (url: string, token: string) => {
    const stream = await SseClient.open(url, { authorization: `Bearer ${token}` });
    streams.push(stream);
    return stream;
  };

  it("streams an unpublished game's board to its developer, and 404 to a stranger", async () => {
    s = await buildTestSignin(variant, { faucetHst: 10 });
    const api: TestApi = {
      app: s.api,
      db: s.db,
      clock: s.clock,
      config: s.config,
      close: () => s.close(),
    };
    const developerWallet = newWallet();
    const developer = await walletSignIn(s.auth, developerWallet);
    const hidden = await gameWithTiers(api, {
      costs: [0],
      published: false,
      developerWallet: developerWallet.address,
    });
    const stranger = await walletSignIn(s.auth, newWallet());
    const base = await listening(s.api);
    const url = `${base}/player/events?gameId=${hidden.gameId}`;

    const refused = await open(url, stranger.access_token);
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'game_not_found' });

    const stream = await open(url, developer.access_token);
    expect(stream.status, stream.body).toBe(200);
    const board = (await stream.next((e) => e.event === 'board')).data as LiveBoard;
    expect(board).toEqual({
      gameId: hidden.gameId,
      leaderboardId: hidden.tiers[0]!.id,
      leaders: [],
    });

    // The developer plays their own game from its server: the preview's board moves.
    const token = await writeToken(api, hidden);
    const headers = { authorization: `Bearer ${token}` };
    const path = `/arcades/${hidden.arcadeId}/games/${hidden.gameId}`;
    const leaderboardId = hidden.tiers[0]!.id;
    const play = await s.api.inject({
      method: 'POST',
      url: `${path}/play`,
      headers,
      payload: { playerId: developer.playerId, leaderboardId },
    });
    expect(play.statusCode, play.body).toBe(200);
    const scored = await s.api.inject({
      method: 'POST',
      url: `${path}/score`,
      headers,
      payload: { playId: play.json().id, leaderboardId, score: 42 },
    });
    expect(scored.statusCode, scored.body).toBe(200);
    const moved = await stream.next(
      (e) => e.event === 'board' && (e.data as LiveBoard).leaders.length > 0,
    );
    expect((moved.data as LiveBoard).leaders.map((l) => l.score)).toEqual([42]);
  });
});
