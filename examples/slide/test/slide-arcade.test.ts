/* eslint-disable @typescript-eslint/no-non-null-assertion -- as in the packages tests: fixtures exist */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { approvalMessage, type ApprovalFields } from '@coinop/protocol';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { fund, startCoinop, type Coinop } from '@coinop/testkit/coinop';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { newWallet, walletSignIn } from '@coinop/testkit/signin';
import { MAX_SCORE, replayOf } from '../web/slide.js';
import { lookaheadRun } from './players.js';

/**
 * Slide against a running coinop, on each store, through the requests the arcade's web app makes
 * when the game asks the bridge for a play and a score (the player's wallet signs each): the
 * developer uploads web/slide.js as the verifier and declares the example's rules; a run played
 * from the play's seed is accepted and paid; a forged score or replay, and a score sooner than
 * the shortest play, are refused, pay nothing and leave the play open for an honest score.
 */

const SLIDE_RULES = { minScore: 0, maxScore: MAX_SCORE, minPlayMs: 500, replay: 'required' };
const UNITS = 100_000_000n;

describe.each(storeVariants())('Slide on a running coinop on %s', (variant) => {
  let coinop: Coinop;
  let game: GameFixture;
  let developer: PrivateKeyAccount;
  let developerToken: string;

  beforeAll(async () => {
    coinop = await startCoinop(variant);
    developer = newWallet();
    game = await gameWithTiers(coinop, {
      costs: [2],
      developerWallet: developer.address.toLowerCase(),
    });
    developerToken = (await walletSignIn(coinop.auth, developer)).access_token;
  });
  afterAll(() => coinop?.close());

  const asDeveloper = (method: 'PUT' | 'PATCH', url: string, payload: string | object) =>
    coinop.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${developerToken}`,
        'content-type': typeof payload === 'string' ? 'text/javascript' : 'application/json',
      },
      payload,
    });

  async function signedIn(hst: number) {
    const wallet = newWallet();
    const { access_token, playerId } = await walletSignIn(coinop.auth, wallet);
    const accountId = await fund(coinop, playerId, hst);
    return { wallet, token: access_token, playerId, accountId };
  }
  type Player = Awaited<ReturnType<typeof signedIn>>;

  async function signed(player: Player, fields: ApprovalFields) {
    const message = approvalMessage(fields);
    return { nonce: fields.nonce, signature: await player.wallet.signMessage({ message }) };
  }

  const post = (player: Player, path: string, payload: object) =>
    coinop.app.inject({
      method: 'POST',
      url: `/player/games/${game.gameId}/${path}`,
      headers: { authorization: `Bearer ${player.token}` },
      payload,
    });

  /** The bridge's `play`: the player approved it, the wallet signed it. */
  async function openPlay(player: Player): Promise<{ id: string; seed: string }> {
    const tier = game.tiers[0]!;
    const approval = await signed(player, {
      kind: 'play',
      gameId: game.gameId,
      gameName: (await gameName()) ?? '',
      leaderboardId: tier.id,
      tierName: tier.name,
      costUnits: tier.costUnits,
      nonce: randomUUID(),
    });
    const res = await post(player, 'plays', { leaderboardId: tier.id, ...approval });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; seed: string }>();
  }

  /** The bridge's `score` with a replay; the replay is evidence, not part of what is signed. */
  async function submit(player: Player, playId: string, score: number, replay: string) {
    const approval = await signed(player, {
      kind: 'score',
      gameId: game.gameId,
      gameName: (await gameName()) ?? '',
      playId,
      score,
      nonce: randomUUID(),
    });
    return post(player, 'scores', { playId, score, replay, ...approval });
  }

  async function gameName() {
    const [row] = await coinop.db.query<{ name: string }>('SELECT name FROM games WHERE id = $1', [
      game.gameId,
    ]);
    return row?.name;
  }

  const playStatus = async (playId: string) =>
    (
      await coinop.db.query<{ status: string }>('SELECT status FROM plays WHERE id = $1', [playId])
    )[0]?.status;

  it('takes web/slide.js as the verifier and the example’s rules', async () => {
    const engine = await readFile(new URL('../web/slide.js', import.meta.url), 'utf8');
    const uploaded = await asDeveloper('PUT', `/developer/games/${game.gameId}/verifier`, engine);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json()).toMatchObject({ version: 1, sizeBytes: Buffer.byteLength(engine) });
    const ruled = await asDeveloper('PATCH', `/developer/games/${game.gameId}`, {
      scoreRules: SLIDE_RULES,
    });
    expect(ruled.statusCode, ruled.body).toBe(200);
    expect(ruled.json<{ scoreRules: unknown }>().scoreRules).toEqual(SLIDE_RULES);
  });

  it('accepts and pays a run played from the play’s seed', async () => {
    const player = await signedIn(10);
    const developerBefore = await balanceOf(coinop, game.developerAccountId);
    const play = await openPlay(player);
    expect(play.seed).toMatch(/^[0-9a-f]{64}$/);
    const run = lookaheadRun(play.seed, 80);
    coinop.clock.advance(30_000);
    const res = await submit(player, play.id, run.score, replayOf(run));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ playId: play.id, score: run.score, leaderRank: 1 });
    expect(await playStatus(play.id)).toBe('scored');
    // 10 - 2, and the leaders' 1.4 back: nobody led the tier when the play began.
    expect(await balanceOf(coinop, player.accountId)).toMatchObject({
      available: 940_000_000n,
      pending: 0n,
    });
    const developerAfter = await balanceOf(coinop, game.developerAccountId);
    expect(developerAfter.creditsPosted).toBeGreaterThan(developerBefore.creditsPosted);
    await expectLedgerBalanced(coinop.db);
  });

  it('refuses a forged score, a forged replay and a score too soon, paying nothing, and then takes the honest one', async () => {
    const player = await signedIn(10);
    const play = await openPlay(player);
    const run = lookaheadRun(play.seed, 60);
    const replay = replayOf(run);

    // Sooner than anyone can make a move and press Finish.
    coinop.clock.advance(100);
    const early = await submit(player, play.id, run.score, replay);
    expect(early.statusCode, early.body).toBe(422);
    expect(early.json()).toMatchObject({ code: 'score_too_fast' });

    coinop.clock.advance(20_000);
    const forged = await submit(player, play.id, run.score * 10, replay);
    expect(forged.statusCode, forged.body).toBe(422);
    expect(forged.json()).toMatchObject({
      code: 'replay_rejected',
      message: expect.stringContaining(`the replay earns ${run.score}, not ${run.score * 10}`),
    });
    // Moves that were never played on this board: one that slides nothing is found at once.
    const invented = `s1:${'L'.repeat(60)}`;
    const made = await submit(player, play.id, run.score, invented);
    expect(made.statusCode, made.body).toBe(422);
    expect(made.json()).toMatchObject({
      code: 'replay_rejected',
      message: expect.stringMatching(/move \d+ (\(L\) changes nothing|comes after the run ended)/),
    });

    // Nothing moved: the play is open and its cost still locked.
    expect(await playStatus(play.id)).toBe('open');
    expect(await balanceOf(coinop, player.accountId)).toMatchObject({
      available: 8n * UNITS,
      pending: 2n * UNITS,
    });
    const refusals = await coinop.db.query<{ reason: string; score: number }>(
      'SELECT reason, score FROM score_refusals WHERE play_id = $1 ORDER BY created_at, reason',
      [play.id],
    );
    expect(refusals.map((r) => r.reason).sort()).toEqual([
      'replay_rejected',
      'replay_rejected',
      'score_too_fast',
    ]);

    const honest = await submit(player, play.id, run.score, replay);
    expect(honest.statusCode, honest.body).toBe(200);
    expect(await playStatus(play.id)).toBe('scored');
    expect(await balanceOf(coinop, player.accountId)).toMatchObject({
      available: 8n * UNITS,
      pending: 0n,
    });
    await expectLedgerBalanced(coinop.db);
  });
});
