import { Type, type Static } from '@sinclair/typebox';
import { formatHst } from '@coinop/core';
import type { VoidOutcome } from '../../services/score-voids.js';
import { Uuid } from './schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

/** The body and answer of a score's void, for the operator and the game's developer alike. */

export const VoidScoreBody = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: 500,
      ...Patterns.notBlank,
      description:
        'Why the score is voided, 1 to 500 characters; the player reads it in their history.',
    }),
  },
  { additionalProperties: false },
);

export const ScoreVoided = Type.Object({
  scoreId: Uuid('The voided score.'),
  leaderboardId: Uuid('Its board.'),
  voidedAt: Type.String({ format: 'date-time', description: 'When it was voided.' }),
  resettledPlays: Type.Array(Uuid('A play re-settled.'), {
    description:
      'The plays whose payouts were still held and were re-settled to the corrected leaders.',
  }),
  moved: Type.Array(
    Type.Object({
      accountId: Uuid('The account.'),
      amount: Type.String({
        description:
          'The change of what it is owed by held payouts, HST as an exact decimal; negative ' +
          'for an account that lost a share.',
      }),
    }),
    {
      description:
        'Per account, in account id order; accounts whose share did not change are left out.',
    },
  ),
  closedReviews: Type.Array(Uuid('A review closed.'), {
    description:
      'The score’s reviews that were open in the review queue and are now closed as voided, ' +
      'with this void’s reason; an approved review keeps its approval.',
  }),
});

export function scoreVoidedToWire(outcome: VoidOutcome): Static<typeof ScoreVoided> {
  return {
    scoreId: outcome.scoreId,
    leaderboardId: outcome.leaderboardId,
    voidedAt: outcome.voidedAt.toISOString(),
    resettledPlays: [...outcome.resettledPlayIds],
    moved: outcome.moved.map((m) => ({ accountId: m.accountId, amount: formatHst(m.units) })),
    closedReviews: [...outcome.closedReviewIds],
  };
}

export const VOID_DESCRIPTION =
  'The score leaves its board (the player’s best falls back to their best remaining score, or ' +
  'they leave it), and every play on the board whose payouts are still held and whose leaders ' +
  'it changed is re-settled as if it had never been made: its held payouts are voided and held ' +
  'again, with the same release time, for the corrected leaders. Payouts already released are ' +
  'not taken back; the voided score’s own play keeps its settlement. The score’s open reviews ' +
  'close as voided with the same reason. One transaction. 404 ' +
  'score_not_found, 409 score_already_voided.';
