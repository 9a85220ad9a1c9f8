import type { FastifyInstance } from 'fastify';

/** Game registration and update with a developer API key (spec 4.8, 4.9). */
export async function registrationPlugin(_app: FastifyInstance): Promise<void> {}
