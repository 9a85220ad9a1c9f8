import type { FastifyInstance } from 'fastify';
import type { SigningKeys } from '../credentials/signing-keys.js';
import { ApiTags, Security } from '../listener/openapi.js';

/** Verifiers refetch on an unknown kid anyway; a minute keeps retired keys' removal prompt. */
const JWKS_MAX_AGE_SECONDS = 60;

/** The public signing keys (spec 5.3), for game servers validating player tokens. */
export async function jwksRoutes(
  app: FastifyInstance,
  options: { keys: SigningKeys },
): Promise<void> {
  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: [ApiTags.keys],
        operationId: 'getJwks',
        security: Security.none,
        summary: 'The public keys that verify player tokens (JWKS, spec 5.3)',
        description: `Cached for ${JWKS_MAX_AGE_SECONDS} s; a retired key stays until its last token expired.`,
        response: {
          200: {
            type: 'object',
            required: ['keys'],
            properties: {
              keys: {
                type: 'array',
                items: { type: 'object', additionalProperties: true },
                description: 'RS256 public keys as JWKs (kty, n, e, kid, alg, use)',
              },
            },
          },
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
      return { keys: await options.keys.publishedKeys() };
    },
  );
}
