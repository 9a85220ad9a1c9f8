import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Arcade, type ArcadeOptions } from '@coinop/server-sdk';
import { ManualClock } from '@coinop/testkit/server';
import { gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { count, sdkOptions, startCoinop, type Coinop } from '@coinop/testkit/coinop';

const TOKEN_PATH = '/oauth/writetoken';
/** Short enough that a test crosses it with a step of the clock. */
const WRITE_TOKEN_TTL_SECONDS = 2;
const CONCURRENT_CALLS = 10;

describe.each(storeVariants())('write token refresh against a running coinop on %s', (variant) => {
  let coinop: Coinop;
  let game: GameFixture;
  let options: ArcadeOptions;

  beforeAll(async () => {
    coinop = await startCoinop(variant, { writeTokenTtlSeconds: WRITE_TOKEN_TTL_SECONDS });
    game = await gameWithTiers(coinop);
    options = { ...sdkOptions(coinop, game), clock: coinop.clock };
  });
  afterAll(() => coinop.close());

  const tokenRequests = () => count(coinop.apiLog, 'POST', TOKEN_PATH);
  const refusals = () =>
    coinop.apiLog.filter((r) => r.status === 401 && r.path !== TOKEN_PATH).length;
  const concurrentReads = (arcade: Arcade) =>
    Promise.all(Array.from({ length: CONCURRENT_CALLS }, () => arcade.leaders(game.tiers[0]!.id)));

  it('replaces an expired token with one request shared by 10 concurrent calls', async () => {
    const arcade = await Arcade.build(options);
    const before = tokenRequests();
    const refusedBefore = refusals();
    await concurrentReads(arcade);
    expect(tokenRequests()).toBe(before);

    coinop.clock.advance((WRITE_TOKEN_TTL_SECONDS + 1) * 1000);
    expect(await concurrentReads(arcade)).toEqual(Array(CONCURRENT_CALLS).fill([]));
    expect(tokenRequests()).toBe(before + 1);
    // The SDK saw the token was due, so the server never had to refuse it.
    expect(refusals()).toBe(refusedBefore);

    await concurrentReads(arcade);
    expect(tokenRequests()).toBe(before + 1);
  });

  it('replaces a token at 80% of its life, before the server would refuse it', async () => {
    // A JWT counts whole seconds: on a whole second, the server's token lives the full TTL.
    coinop.clock.advance(1000 - (coinop.clock.now().getTime() % 1000));
    const arcade = await Arcade.build(options);
    const before = tokenRequests();
    coinop.clock.advance(WRITE_TOKEN_TTL_SECONDS * 1000 * 0.7);
    await arcade.leaderboards();
    expect(tokenRequests()).toBe(before);
    coinop.clock.advance(WRITE_TOKEN_TTL_SECONDS * 1000 * 0.2);
    await arcade.leaderboards();
    expect(tokenRequests()).toBe(before + 1);
  });

  it('replaces a token the server refuses once, and repeats the refused calls', async () => {
    // The SDK's clock stands still, so only the server can tell that the token expired.
    const arcade = await Arcade.build({ ...options, clock: new ManualClock(new Date()) });
    const before = tokenRequests();
    const refusedBefore = refusals();
    coinop.clock.advance((WRITE_TOKEN_TTL_SECONDS + 1) * 1000);

    expect(await concurrentReads(arcade)).toHaveLength(CONCURRENT_CALLS);
    expect(refusals()).toBe(refusedBefore + CONCURRENT_CALLS);
    expect(tokenRequests()).toBe(before + 1);
    const refused = coinop.apiLog.filter((r) => r.status === 401 && r.path !== TOKEN_PATH);
    expect(refused.every((r) => r.method === 'GET')).toBe(true);
  });
});
