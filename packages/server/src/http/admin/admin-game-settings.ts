import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { CURRENCY, type AdminGameSettings, type AdminTierSettings } from '@coinop/protocol';
import { formatHst } from '@coinop/core';
import { readGameSettings, type GameSettings } from '../../services/game-settings.js';
import { Security } from '../../listener/openapi.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Uuid } from '../shared/schemas.js';
import { ScoreRulesSchema, TierScoreRulesSchema } from '../developer/score-rules-schemas.js';
import { GameParams, TAGS } from './admin-schemas.js';
import { ExactHst } from './admin-field-schemas.js';

const Seconds = (description: string) => Type.Integer({ minimum: 0, description });
const OwnSeconds = (description: string) =>
  Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description });

const AdminTierSettingsSchema = Type.Object({
  leaderboardId: Uuid('The tier'),
  name: Type.String(),
  cost: ExactHst('What one play costs'),
  formattedCostString: Type.String({ description: 'The cost for display, e.g. "1 HST"' }),
  payoutHoldSeconds: OwnSeconds("The tier's own payout hold; null: the game's"),
  effectivePayoutHoldSeconds: Seconds(
    "The hold its plays settle with: its own, else the game's, else the operator's default",
  ),
  scoreRules: TierScoreRulesSchema,
  effectiveScoreRules: Type.Composite([ScoreRulesSchema], {
    description: "The rules its scores must meet: the game's with the tier's overrides",
  }),
});

const AdminGameSettingsSchema = Type.Object(
  {
    gameId: Uuid('The game'),
    name: Type.String(),
    operatorPayoutHoldSeconds: Seconds("The operator's default payout hold (--payout-hold)"),
    payoutHoldSeconds: OwnSeconds("The game's own payout hold; null: the operator's default"),
    effectivePayoutHoldSeconds: Seconds("The game's own hold, else the operator's default"),
    scoreRules: ScoreRulesSchema,
    tiers: Type.Array(AdminTierSettingsSchema, { description: 'Live tiers, in display order' }),
  },
  { description: "What judges and holds the game's scores (issue 30)" },
);

declare const _tier: SchemaMatches<typeof AdminTierSettingsSchema, AdminTierSettings>;
declare const _game: SchemaMatches<typeof AdminGameSettingsSchema, AdminGameSettings>;

/**
 * The operator reads a game's score rules and payout holds. Read-only: the developer sets them
 * (docs/reference/developer-portal-api.md); the operator's part is the default hold and voids.
 * Registered inside the admin plugin, so only the admin token may call it.
 */
export function adminGameSettingsRoutes(instance: FastifyInstance): void {
  const r = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = r.arcade;

  r.get(
    '/admin/games/:gameId/settings',
    {
      schema: {
        operationId: 'adminGetGameSettings',
        tags: TAGS,
        security: Security.adminToken,
        summary: "A game's score rules and payout holds, its own and each tier's",
        description:
          'Each value as set (null inherits) and as in force. 404 `game_not_found` for an ' +
          'unknown game.',
        params: GameParams,
        response: { 200: AdminGameSettingsSchema },
      },
    },
    async (request) => settingsToWire(await readGameSettings(arcade, request.params.gameId)),
  );
}

function settingsToWire(settings: GameSettings): Static<typeof AdminGameSettingsSchema> {
  return {
    gameId: settings.gameId,
    name: settings.name,
    operatorPayoutHoldSeconds: settings.operatorPayoutHoldSeconds,
    payoutHoldSeconds: settings.payoutHoldSeconds,
    effectivePayoutHoldSeconds: settings.effectivePayoutHoldSeconds,
    scoreRules: settings.scoreRules,
    tiers: settings.tiers.map((t) => ({
      leaderboardId: t.tier.id,
      name: t.tier.name,
      cost: formatHst(t.tier.costUnits),
      formattedCostString: `${formatHst(t.tier.costUnits)} ${CURRENCY}`,
      payoutHoldSeconds: t.payoutHoldSeconds,
      effectivePayoutHoldSeconds: t.effectivePayoutHoldSeconds,
      scoreRules: t.scoreRules,
      effectiveScoreRules: t.effectiveScoreRules,
    })),
  };
}
