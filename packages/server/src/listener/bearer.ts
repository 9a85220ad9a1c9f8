import type { FastifyRequest } from 'fastify';

/** The bearer token of a request, or null when there is no `Authorization: Bearer` header. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
