import { Type } from '@sinclair/typebox';
import { MIN_PLAY_MS_MAX } from '@coinop/core';
import type { ScoreRules, TierScoreRules } from '@coinop/protocol';
import type { SchemaMatches } from '../../listener/wire-check.js';

/** The score rules of games and tiers on the developer API (issue 30). */

const bound = (description: string) =>
  Type.Union([Type.Number({ minimum: 0, description }), Type.Null()], {
    description: `${description}; null: no bound`,
  });
const minScore = bound('The lowest score a play can earn, inclusive');
const maxScore = bound('The highest score a play can earn, inclusive');
const minPlayMs = Type.Union(
  [
    Type.Integer({
      minimum: 0,
      maximum: MIN_PLAY_MS_MAX,
      description:
        'The shortest possible play in milliseconds, from its open (server time) to the ' +
        'score’s arrival; a score sooner is refused 422 score_too_fast',
    }),
    Type.Null(),
  ],
  { description: 'null: no shortest play' },
);
const replay = Type.Union([Type.Literal('off'), Type.Literal('required')], {
  description:
    'required: every score carries a replay that the game’s verifier reproduces (the game ' +
    'must have a verifier uploaded)',
});

export const ScoreRulesSchema = Type.Object(
  { minScore, maxScore, minPlayMs, replay },
  {
    description:
      'The rules the game’s scores must meet (docs/concepts/score-integrity.md); a tier may ' +
      'override each.',
  },
);
export const TierScoreRulesSchema = Type.Object(
  {
    minScore,
    maxScore,
    minPlayMs,
    replay: Type.Union([replay, Type.Null()], { description: 'null inherits the game’s' }),
  },
  { description: 'The tier’s overrides of its game’s score rules; each null inherits.' },
);

/** A change of rules: the fields given are set (null clears one), the others kept. */
export const ScoreRulesBody = Type.Partial(ScoreRulesSchema, { additionalProperties: false });
export const TierScoreRulesBody = Type.Partial(TierScoreRulesSchema, {
  additionalProperties: false,
});

declare const _rules: SchemaMatches<typeof ScoreRulesSchema, ScoreRules>;
declare const _tierRules: SchemaMatches<typeof TierScoreRulesSchema, TierScoreRules>;
