import type { FastifyRequest } from 'fastify';

/** Who a request is: the signed-in player, or a 401. */
export type Authenticate = (request: FastifyRequest) => Promise<{ playerId: string }>;
