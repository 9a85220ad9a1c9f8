import type { FastifyInstance } from 'fastify';

/** The server-to-server API a game's authoritative server calls (spec 4.2–4.5). */
export async function gameServerPlugin(_app: FastifyInstance): Promise<void> {}
