import type { FastifyInstance } from 'fastify';

/** The operator API behind `coinop admin`, guarded by the admin bearer token. */
export async function adminPlugin(
  _app: FastifyInstance,
  _options: { adminToken: string },
): Promise<void> {}
