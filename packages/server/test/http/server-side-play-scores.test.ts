import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import { approvalMessage } from '@coinop/protocol';
import { wholeHstToUnits } from '@coinop/core';
import { mintHst } from '../../src/services/admin-hst.js';
import { storeVariants } from '@coinop/testkit/db';
import { gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';

/**
 * What broke (security review, finding 2): the player's score route
 * (`POST /player/games/{gameId}/scores`) scored any open play of the signed-in player, also one
 * their game's server opened with its write token. In a server-side game (examples/high-low) the
 * score is the server's (docs/concepts/score-integrity.md, "Who can lie about a score"), yet the
 * player could sign `Score: 1e12` for the run, take the top of the board, and have the server's
 * real score refused `play_already_scored`. A play now records who opened it, and only they score
 * it: the player their own client-side plays, the game's server the plays it opened.
 */
describe.each(storeVariants())('who scores a play a game server opened, on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let game: GameFixture;
  let gameName: string;
  let token: string;

  beforeAll(async () => {
    s = await buildTestSignin(variant);
    api = testApiOf(s);
    game = await gameWithTiers(api, { costs: [2] });
    gameName = (await s.api.arcade.reads.gameView(game.gameId)).game.name;
    token = await writeToken(api, game);
  });
  afterAll(() => s.close());
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
    await expectRankTreeConsistent(s.db);
  });

  async function fundedSignedInPlayer() {
    const wallet = newWallet();
    const { access_token, playerId } = await walletSignIn(s.auth, wallet);
    await mintHst(s.api.arcade, { id: playerId, amountUnits: wholeHstToUnits(10) });
    return { wallet, token: access_token, playerId };
  }

  /** The game's server opens a play for the player, as examples/high-low does for a new game. */
  async function serverPlay(playerId: string): Promise<string> {
    const opened = await s.api.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
      headers: { authorization: `Bearer ${token}` },
      payload: { playerId, leaderboardId: game.tiers[0]!.id },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    return opened.json<{ id: string }>().id;
  }

  async function playerScore(
    player: { wallet: PrivateKeyAccount; token: string },
    playId: string,
    score: number,
  ) {
    const nonce = randomUUID();
    const message = approvalMessage({
      kind: 'score',
      gameId: game.gameId,
      gameName,
      playId,
      score,
      nonce,
    });
    return s.api.inject({
      method: 'POST',
      url: `/player/games/${game.gameId}/scores`,
      headers: { authorization: `Bearer ${player.token}` },
      payload: { playId, score, nonce, signature: await player.wallet.signMessage({ message }) },
    });
  }

  const serverScore = (playId: string, score: number) =>
    s.api.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/score`,
      headers: { authorization: `Bearer ${token}` },
      payload: { playId, leaderboardId: game.tiers[0]!.id, score },
    });

  it("refuses the player's own signed score for it, and then takes the server's", async () => {
    const player = await fundedSignedInPlayer();
    const playId = await serverPlay(player.playerId);

    const res = await playerScore(player, playId, 1e12);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'play_scored_by_game_server',
      message:
        `play ${playId} was opened by its game's server, which submits its score; ` +
        'a player scores only the plays they opened themselves',
    });
    // Nothing was written: the play is open, with no score and no score approval.
    const rows = await s.db.query<{ status: string; opened_by: string }>(
      'SELECT status, opened_by FROM plays WHERE id = $1',
      [playId],
    );
    expect(rows).toEqual([{ status: 'open', opened_by: 'game_server' }]);
    const approvals = await s.db.query(
      "SELECT 1 FROM wallet_approvals WHERE kind = 'score' AND subject_id = $1",
      [playId],
    );
    expect(approvals).toEqual([]);

    const scored = await serverScore(playId, 3);
    expect(scored.statusCode, scored.body).toBe(200);
    expect(scored.json()).toMatchObject({ playId, score: 3 });
  });

  it("answers another player's signed score as before: the play is not theirs", async () => {
    const owner = await fundedSignedInPlayer();
    const other = await fundedSignedInPlayer();
    const playId = await serverPlay(owner.playerId);

    const res = await playerScore(other, playId, 5);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'play_of_another_player' });
    expect((await serverScore(playId, 4)).statusCode).toBe(200);
  });
});
