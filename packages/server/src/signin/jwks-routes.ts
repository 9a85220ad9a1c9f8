import type { FastifyInstance } from 'fastify';
import type { SigningKeys } from '../credentials/signing-keys.js';

/** Verifiers refetch on an unknown kid anyway; a minute keeps retired keys' removal prompt. */
const JWKS_MAX_AGE_SECONDS = 60;

/** The public signing keys (spec 5.3), for game servers validating player tokens. */
export async function jwksRoutes(
  app: FastifyInstance,
  options: { keys: SigningKeys },
): Promise<void> {
  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
    return { keys: await options.keys.publishedKeys() };
  });
}
