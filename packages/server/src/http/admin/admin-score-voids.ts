import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import {
  ScoreVoided,
  VOID_DESCRIPTION,
  VoidScoreBody,
  scoreVoidedToWire,
} from '../shared/score-void-schemas.js';
import { TAGS } from './admin-schemas.js';

/** The operator voids any score. Registered inside the admin plugin: its admin-token hook guards it. */
export function adminScoreVoidRoutes(instance: FastifyInstance): void {
  const r = instance.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/admin/scores/:scoreId/void',
    {
      schema: {
        operationId: 'adminVoidScore',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Void a score and re-settle the held payouts it caused',
        description: VOID_DESCRIPTION,
        params: Type.Object({ scoreId: Uuid('The score.') }),
        body: VoidScoreBody,
        response: { 200: ScoreVoided },
      },
    },
    async (request) =>
      scoreVoidedToWire(
        await r.arcade.voids.voidScore({
          scoreId: request.params.scoreId,
          reason: request.body.reason,
          log: request.log,
          actor: { kind: 'admin' },
        }),
      ),
  );
}
