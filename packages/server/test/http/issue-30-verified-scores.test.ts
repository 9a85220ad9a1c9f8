import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import { GameVerifiers } from '../../src/services/game-verifiers.js';
import { findDeveloper } from '../../src/store/developers.js';
import { refusalsOfPlay } from '../../src/store/score-rules.js';

// Issue 30: a tier that requires replays pays only a score its game's verifier reproduces from
// the play's seed, run in the real sandbox; a verifier that attacks the sandbox costs the score,
// never the server.

// The moves' sum plus a bonus drawn from the seed: a replay prepared without the seed is wrong.
const VERIFIER = `export function verify({ seed, replay }) {
  const moves = JSON.parse(replay);
  return moves.reduce((sum, move) => sum + move, 0) + (parseInt(seed.slice(0, 2), 16) % 10);
}`;
const earned = (seed: string, moves: number[]) =>
  moves.reduce((sum, move) => sum + move, 0) + (parseInt(seed.slice(0, 2), 16) % 10);

describe.each(storeVariants())('verified scores (issue 30) on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let token: string;
  let verifiers: GameVerifiers;

  const upload = async (source: string) => {
    const developer = await findDeveloper(api.db, game.developerId);
    return verifiers.upload(developer!, game.gameId, source);
  };

  beforeEach(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [1, 10] });
    token = await writeToken(api, game);
    verifiers = new GameVerifiers(api.app.arcade);
    await upload(VERIFIER);
    await api.app.arcade.scoreRules.changeTier(game.gameId, game.tiers[1]!.id, {
      replay: 'required',
    });
  });
  afterEach(async () => {
    await expectLedgerBalanced(api.db);
    await expectRankTreeConsistent(api.db);
    await api.close();
  });

  const post = (path: string, payload: object) =>
    api.app.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/${path}`,
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
  const leaderboardId = () => game.tiers[1]!.id;
  const play = async (playerId: string) => {
    const res = await post('play', { playerId, leaderboardId: leaderboardId() });
    expect(res.statusCode).toBe(200);
    return res.json() as { id: string; seed: string };
  };
  const score = (playId: string, value: number, replay: string) =>
    post('score', { playId, leaderboardId: leaderboardId(), score: value, replay });
  const playStatus = async (playId: string) =>
    (await api.db.query<{ status: string }>('SELECT status FROM plays WHERE id = $1', [playId]))[0]
      ?.status;

  it('refuses a forged replay, keeps the play open, then takes the honest score', async () => {
    const alice = await fundedPlayer(api, 100);
    const opened = await play(alice.playerId);
    const moves = [3, 5, 8];
    const honest = earned(opened.seed, moves);

    const forged = await score(opened.id, 4200, JSON.stringify(moves));
    expect(forged.statusCode).toBe(422);
    expect(forged.json()).toMatchObject({
      code: 'replay_rejected',
      message: expect.stringContaining(`the replay earns ${honest}, not 4200`),
    });
    expect(await playStatus(opened.id)).toBe('open');
    const [refusal] = await refusalsOfPlay(api.db, opened.id);
    expect(refusal).toMatchObject({ reason: 'replay_rejected', replay: JSON.stringify(moves) });

    const accepted = await score(opened.id, honest, JSON.stringify(moves));
    expect(accepted.statusCode).toBe(200);
    expect(await playStatus(opened.id)).not.toBe('open');
  });

  it('answers a verifier that loops forever or hoards memory with a refusal, never a 5xx', async () => {
    const alice = await fundedPlayer(api, 100);
    await upload('export function verify() { for (;;) {} }');
    const looping = await play(alice.playerId);
    const pending = score(looping.id, 1, '[]');
    // Other requests are served meanwhile: the loop runs in a worker thread.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const beside = await play(alice.playerId);
    const besideMs = performance.now() - started;
    const refused = await pending;
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'replay_rejected',
      message: expect.stringContaining('the verifier ran out of time (250 ms)'),
    });
    expect(besideMs).toBeLessThan(250);
    console.info(`a play opened beside an endless verifier in ${besideMs.toFixed(0)} ms`);

    await upload(`export function verify() {
      const hoard = [];
      for (let size = 1 << 20; ; size *= 2) hoard.push(new ArrayBuffer(size));
    }`);
    const bomb = await score(beside.id, 1, '[]');
    expect(bomb.statusCode).toBe(422);
    expect(bomb.json()).toMatchObject({
      code: 'replay_rejected',
      message: expect.stringContaining('the verifier ran out of memory (32 MB)'),
    });

    await upload(`export function verify() {
      Object.prototype.polluted = 1;
      return globalThis.process.pid;
    }`);
    const reaching = await score(looping.id, 1, '[]');
    expect(reaching.statusCode).toBe(422);
    expect(reaching.json()).toMatchObject({ code: 'replay_rejected' });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(await playStatus(looping.id)).toBe('open');
    expect(await playStatus(beside.id)).toBe('open');
  });
});
