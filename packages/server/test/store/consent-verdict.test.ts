import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CoinopError,
  allowanceDay,
  chargeVerdict,
  playerActor,
  wholeHstToUnits,
  type InvitationAnswer,
} from '@coinop/core';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, nextWallet } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { setAllowance } from '../../src/store/consent.js';

/**
 * The consent rule is written twice (docs/concepts/consent.md, "How it is enforced"): in the core
 * (`chargeVerdict`, for reads and refusals) and in the statement that opens a play
 * (store/open-plays.ts, which decides and spends atomically). They must agree: for every game
 * state, every relation of player to game, every allowance and every kind of play, the verdict
 * from the stored facts is what the play statement does.
 */

const GAME_STATES = ['published', 'unpublished', 'suspended'] as const;
const RELATIONS = ['developer', 'accepted', 'invited', 'declined', 'left', 'stranger'] as const;
const ALLOWANCES = [null, 0, 2] as const;

const REFUSAL_CODES: Record<string, string> = {
  suspended: 'game_suspended',
  not_tester: 'player_not_tester',
  allowance: 'consent_required',
};

describe.each(storeVariants())('the play statement applies chargeVerdict, on %s', (variant) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await buildTestApi(variant, { defaultAllowanceUnits: 0n });
  });
  afterAll(async () => {
    await expectLedgerBalanced(api.db);
    await api.close();
  });

  /** A player related to the game as `relation` says, through the services a person would use. */
  async function relatedPlayer(
    game: { gameId: string; developerWallet: string },
    relation: (typeof RELATIONS)[number],
  ) {
    const wallet = relation === 'developer' ? game.developerWallet : nextWallet();
    const player = await fundedPlayer(api, 100, relation, wallet);
    const { testers } = api.app.arcade;
    // Accepting sets an allowance of 1 HST; the table's own allowance, when it has one, follows.
    const accept: InvitationAnswer = { accept: true, dailyUnits: wholeHstToUnits(1) };
    const decline: InvitationAnswer = { accept: false };
    const answers: Partial<Record<typeof relation, InvitationAnswer[]>> = {
      accepted: [accept],
      declined: [decline],
      left: [accept, decline],
    };
    if (relation !== 'developer' && relation !== 'stranger') {
      await testers.invite(game.gameId, wallet);
      for (const answer of answers[relation] ?? []) {
        const actor = playerActor(player.playerId, 'player_session');
        await testers.answer(actor, { playerId: player.playerId, gameId: game.gameId }, answer);
      }
    }
    return player;
  }

  it('agrees on every combination', async () => {
    const { consent, plays } = api.app.arcade;
    const seen = new Set<string>();
    let compared = 0;
    for (const state of GAME_STATES) {
      for (const allowance of ALLOWANCES) {
        const game = await gameWithTiers(api, {
          costs: [1, 0],
          published: state !== 'unpublished',
        });
        const players = [];
        for (const relation of RELATIONS) {
          const player = await relatedPlayer(game, relation);
          if (allowance !== null) {
            // Stored as is: the grant route refuses a player who may not see an unpublished game,
            // yet such a row exists (a tester who left, a game unpublished after publication).
            const now = api.app.arcade.clock.now();
            await setAllowance(api.db, {
              playerId: player.playerId,
              gameId: game.gameId,
              dailyUnits: wholeHstToUnits(allowance),
              day: allowanceDay(now),
              now,
            });
          }
          players.push({ relation, ...player });
        }
        if (state === 'suspended') await consent.suspend(game.gameId);
        for (const player of players) {
          for (const tier of game.tiers) {
            for (const signed of [false, true]) {
              const costUnits = wholeHstToUnits(tier.cost);
              const facts = await consent.facts(game.gameId, player.playerId);
              if (facts === null) throw new TypeError('the game and the player exist');
              const verdict = chargeVerdict(facts, costUnits, 0n, { signed });
              const expected = verdict.ok ? 'ok' : REFUSAL_CODES[verdict.reason];
              const nonce = `n${compared}x${Date.now()}`;
              const outcome = await plays
                .open({
                  gameId: game.gameId,
                  playerId: player.playerId,
                  leaderboardId: tier.id,
                  idempotencyKey: null,
                  ...(signed
                    ? {
                        approval: {
                          playerId: player.playerId,
                          wallet: player.wallet,
                          nonce,
                          message: `play ${nonce}`,
                          signature: '0x00',
                          costUnits,
                        },
                      }
                    : {}),
                })
                .then(
                  () => 'ok',
                  (error: unknown) => {
                    if (error instanceof CoinopError) return error.code;
                    throw error;
                  },
                );
              const what =
                `${state} game, ${player.relation}, allowance ${allowance ?? 'none'}, ` +
                `${signed ? 'signed' : 'server'} play of ${tier.cost} HST`;
              expect(outcome, what).toBe(expected);
              seen.add(expected ?? 'unknown');
              compared += 1;
            }
          }
        }
      }
    }
    expect(compared).toBe(GAME_STATES.length * ALLOWANCES.length * RELATIONS.length * 2 * 2);
    // Every verdict the rule can give was met, so the table is not agreeing on one answer alone.
    expect([...seen].sort()).toEqual(
      ['consent_required', 'game_suspended', 'ok', 'player_not_tester'].sort(),
    );
  });
});
