import { afterEach, describe, expect, it } from 'vitest';
import { LIVE_STREAMS_PER_PLAYER } from 'coinop/services/live-hub.js';
import { storeVariants } from '@coinop/testkit/db';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';
import { SseClient } from '../fixtures/sse-client.js';

/**
 * Issue 31: a per-player limit on open streams. A player holds at most `LIVE_STREAMS_PER_PLAYER`
 * streams in one process (a tab each); the next is refused with 429 `live_streams_per_player`,
 * counted before any read so streams opened together cannot pass it, and a slot frees as soon as
 * one of the player's streams ends. Other players are not affected.
 */
describe.each(storeVariants())('the per-player stream limit on %s', (variant) => {
  let s: TestSignin;
  const streams: SseClient[] = [];

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await s.close();
  });

  async function signedIn() {
    const session = await walletSignIn(s.auth, newWallet());
    return { authorization: `Bearer ${session.access_token}` };
  }

  it('refuses the stream past the limit with 429, frees a slot when one ends', async () => {
    s = await buildTestSignin(variant);
    await s.api.listen({ port: 0, host: '127.0.0.1' });
    const address = s.api.server.address();
    if (address === null || typeof address === 'string') throw new TypeError('no port');
    const url = `http://127.0.0.1:${address.port}/player/events`;
    const alice = await signedIn();
    const bob = await signedIn();
    const open = async (headers: Record<string, string>) => {
      const stream = await SseClient.open(url, headers);
      streams.push(stream);
      return stream;
    };

    // Opened all at once, two more than the limit: exactly the limit get in.
    const opened = await Promise.all(
      Array.from({ length: LIVE_STREAMS_PER_PLAYER + 2 }, () => open(alice)),
    );
    expect(LIVE_STREAMS_PER_PLAYER).toBe(10);
    const statuses = opened.map((stream) => stream.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    const refused = opened.find((stream) => stream.status === 429)!;
    expect(JSON.parse(refused.body)).toMatchObject({
      code: 'live_streams_per_player',
      details: { limit: 10 },
    });
    expect(s.api.arcade.live.size).toBe(10);

    // Another player is not held back by alice's streams.
    expect((await open(bob)).status).toBe(200);

    // Alice closes a tab: once the server sees it end, she may open another, and only one.
    opened.find((stream) => stream.status === 200)!.close();
    await expect.poll(() => s.api.arcade.live.size).toBe(10);
    expect((await open(alice)).status).toBe(200);
    expect((await open(alice)).status).toBe(429);
  });
});
