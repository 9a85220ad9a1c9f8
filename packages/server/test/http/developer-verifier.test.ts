import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import { gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';

// Issue 30: a game's replay verifier, uploaded and tried by its developer through the API, on
// the real sandbox and both stores.

const SEED = '0f'.repeat(32);
// Sums the replay's moves: the score a replay earns.
const SUMMING = `export function verify({ replay }) {
  return JSON.parse(replay).reduce((sum, move) => sum + move, 0);
}
`;
const DOUBLING = SUMMING.replace('sum + move', 'sum + 2 * move');

interface Version {
  gameId: string;
  version: number;
  sha256: string;
  sizeBytes: number;
  uploadedAt: string;
  removedAt: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe.each(storeVariants())('replay verifier routes on %s', (variant) => {
  let s: TestSignin;
  let wallet: PrivateKeyAccount;
  let token: string;
  let game: GameFixture;

  beforeAll(async () => {
    s = await buildTestSignin(variant);
    wallet = newWallet();
    token = (await walletSignIn(s.auth, wallet)).access_token;
    game = await gameWithTiers(
      { app: s.api, db: s.db, clock: s.clock, config: s.config, close: () => s.close() },
      { developerWallet: wallet.address },
    );
  });
  afterAll(() => s.close());

  const auth = (bearer = token) => ({ authorization: `Bearer ${bearer}` });
  const upload = (source: string, type = 'text/javascript', gameId = game.gameId) =>
    s.api.inject({
      method: 'PUT',
      url: `/developer/games/${gameId}/verifier`,
      headers: { ...auth(), 'content-type': type },
      payload: source,
    });
  const read = () =>
    s.api.inject({
      method: 'GET',
      url: `/developer/games/${game.gameId}/verifier`,
      headers: auth(),
    });
  const check = (body: object) =>
    s.api.inject({
      method: 'POST',
      url: `/developer/games/${game.gameId}/verifier/check`,
      headers: auth(),
      payload: body,
    });

  /** What the portal's game says of its verifier, so it need not ask GET …/verifier for a 404. */
  const gameVerifierVersion = async () =>
    (
      await s.api.inject({
        method: 'GET',
        url: `/developer/games/${game.gameId}`,
        headers: auth(),
      })
    ).json<{ verifierVersion: number | null }>().verifierVersion;

  it('stores each upload as the next version, current at once, and reads it back', async () => {
    // The portal asked GET …/verifier on every load of the Integration tab, a 404 for a game
    // without one: the game now says which version is current, null for none.
    expect(await gameVerifierVersion()).toBeNull();
    const first = await upload(SUMMING);
    expect(first.statusCode).toBe(201);
    expect(first.json<Version>()).toEqual({
      gameId: game.gameId,
      version: 1,
      sha256: sha256(SUMMING),
      sizeBytes: Buffer.byteLength(SUMMING),
      uploadedAt: s.clock.now().toISOString(),
      removedAt: null,
    });
    const second = await upload(DOUBLING, 'application/javascript; charset=utf-8');
    expect(second.statusCode).toBe(201);
    expect(second.json<Version>()).toMatchObject({ version: 2, sha256: sha256(DOUBLING) });

    const current = await read();
    expect(current.statusCode).toBe(200);
    expect(current.json()).toMatchObject({ version: 2, source: DOUBLING });
    expect(await gameVerifierVersion()).toBe(2);
    // The score path's verifier runs the current version.
    const outcome = await s.api.arcade.verifiers.verify({
      gameId: game.gameId,
      seed: SEED,
      replay: '[1,2]',
      score: 6,
      leaderboardId: game.tiers[0]!.id,
    });
    expect(outcome).toEqual({ ok: true, computed: 6 });
  });

  it('refuses a module that does not load, naming what is wrong, and stores nothing', async () => {
    const syntax = await upload('export function verify() {\n  return (;\n}\n');
    expect(syntax.statusCode).toBe(400);
    expect(syntax.json()).toMatchObject({
      code: 'verifier_invalid',
      message: expect.stringMatching(
        /^the module does not load: SyntaxError: .+ \(line 2, column \d+\)$/,
      ),
    });
    const noVerify = await upload('export function check() { return 1 }');
    expect(noVerify.json()).toMatchObject({
      code: 'verifier_invalid',
      message: 'the module exports no function `verify`',
    });
    const imports = await upload('import fs from "fs";\nexport function verify() { return 1 }');
    expect(imports.json()).toMatchObject({ code: 'verifier_invalid' });
    const empty = await upload('   ');
    expect(empty.statusCode).toBe(400);
    const large = await upload(`${SUMMING}//${'x'.repeat(256 * 1024)}`);
    expect(large.statusCode).toBe(413);
    expect(large.json()).toMatchObject({
      code: 'verifier_too_large',
      message: expect.stringMatching(/^the module is \d+ bytes, over the limit of 262144/),
    });
    const json = await s.api.inject({
      method: 'PUT',
      url: `/developer/games/${game.gameId}/verifier`,
      headers: auth(),
      payload: { source: SUMMING },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({
      code: 'unsupported_media_type',
      message: 'the body must be the module itself, as application/javascript or text/javascript',
    });
    expect((await read()).json()).toMatchObject({ version: 2 });
  });

  it("answers another developer's game as not found", async () => {
    const other = await gameWithTiers({
      app: s.api,
      db: s.db,
      clock: s.clock,
      config: s.config,
      close: () => s.close(),
    });
    const res = await upload(SUMMING, 'text/javascript', other.gameId);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'game_not_found' });
  });

  it('checks a replay: accepted, forged, and a given module instead of the stored one', async () => {
    const good = await check({ seed: SEED, replay: '[1,2]', score: 6 });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({
      ok: true,
      reason: null,
      detail: null,
      computed: 6,
      version: 2,
      seed: SEED,
      durationMs: expect.any(Number),
    });
    const forged = await check({ replay: '[1,2]', score: 4200 });
    expect(forged.json()).toMatchObject({
      ok: false,
      reason: 'mismatch',
      detail: 'the replay earns 6, not 4200',
      computed: 6,
      seed: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const given = await check({ source: SUMMING, replay: '[1,2]', score: 3 });
    expect(given.json()).toMatchObject({ ok: true, computed: 3, version: null });
    const badSeed = await check({ seed: 'XYZ', replay: '[]', score: 0 });
    expect(badSeed.statusCode).toBe(400);
    expect(badSeed.json()).toMatchObject({ code: 'validation_failed' });
    const big = await check({ replay: `[${'1,'.repeat(40_000)}1]`, score: 1 });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({
      code: 'replay_too_large',
      message: 'the replay is 80003 bytes, over the limit of 65536',
    });
  });

  it('answers an endless loop with time_limit while other requests are served', async () => {
    const looping = check({
      source: 'export function verify() { for (;;) {} }',
      replay: '[]',
      score: 1,
    });
    // Give the check a head start into the sandbox, then time an ordinary read beside it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const other = await read();
    const otherMs = performance.now() - started;
    const loop = await looping;
    expect(other.statusCode).toBe(200);
    expect(loop.statusCode).toBe(200);
    expect(loop.json()).toMatchObject({
      ok: false,
      reason: 'time_limit',
      detail: 'the verifier ran out of time (250 ms)',
    });
    // The read did not wait for the loop (a budget for a busy machine, not a speed claim).
    expect(otherMs).toBeLessThan(200);
    console.info(`a read beside an endless verifier took ${otherMs.toFixed(0)} ms`);
  });

  it('removes the current verifier, keeps its record, and a new upload is current again', async () => {
    const removed = await s.api.inject({
      method: 'DELETE',
      url: `/developer/games/${game.gameId}/verifier`,
      headers: auth(),
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ version: 2, removedAt: s.clock.now().toISOString() });
    expect((await read()).json()).toMatchObject({ code: 'verifier_not_found' });
    expect(await gameVerifierVersion()).toBeNull();
    expect((await check({ replay: '[]', score: 0 })).json()).toMatchObject({
      code: 'verifier_not_found',
    });
    const outcome = await s.api.arcade.verifiers.verify({
      gameId: game.gameId,
      seed: SEED,
      replay: '[]',
      score: 0,
      leaderboardId: game.tiers[0]!.id,
    });
    expect(outcome).toMatchObject({ ok: false, reason: 'no_verifier' });
    const again = await s.api.inject({
      method: 'DELETE',
      url: `/developer/games/${game.gameId}/verifier`,
      headers: auth(),
    });
    expect(again.statusCode).toBe(404);

    expect((await upload(SUMMING)).json()).toMatchObject({ version: 3, removedAt: null });
    expect((await read()).json()).toMatchObject({ version: 3, source: SUMMING });
    expect(await gameVerifierVersion()).toBe(3);
  });

  it('refuses to remove a verifier while the game or a live tier requires replays', async () => {
    const remove = () =>
      s.api.inject({
        method: 'DELETE',
        url: `/developer/games/${game.gameId}/verifier`,
        headers: auth(),
      });
    const { scoreRules } = s.api.arcade;
    await scoreRules.changeTier(game.gameId, game.tiers[1]!.id, { replay: 'required' });
    const refused = await remove();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'verifier_in_use',
      message:
        `game ${game.gameId} requires a replay with its scores: set the replay rule of the ` +
        'game and its tiers to off first, or upload a new version instead',
    });
    await scoreRules.changeTier(game.gameId, game.tiers[1]!.id, { replay: null });
    await scoreRules.changeGame(game.gameId, { replay: 'required' });
    expect((await remove()).statusCode).toBe(409);
    await scoreRules.changeGame(game.gameId, { replay: 'off' });
    expect((await read()).json()).toMatchObject({ version: 3, removedAt: null });
  });

  it('gives uploads at the same time distinct versions', async () => {
    const sources = [1, 2, 3, 4].map((n) => `${SUMMING}// build ${n}\n`);
    const answers = await Promise.all(sources.map((source) => upload(source)));
    expect(answers.map((res) => res.statusCode)).toEqual([201, 201, 201, 201]);
    const versions = answers.map((res) => res.json<Version>().version);
    expect([...versions].sort()).toEqual([4, 5, 6, 7]);
    const latest = sources[versions.indexOf(7)];
    expect((await read()).json()).toMatchObject({ version: 7, source: latest });
  });
});
