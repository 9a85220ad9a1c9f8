import type { FastifyRequest } from 'fastify';
import type { RouteRateLimit } from '../../listener/rate-limit.js';
import type { AccountReads } from '../../services/account-reads.js';
import type { PlayerArcade } from '../../services/player-arcade.js';

/** What the player plugin's route functions share: who is signed in, and the services. */
export interface PlayerRouteContext {
  /** The signed-in player (401 otherwise). */
  readonly authenticate: (request: FastifyRequest) => Promise<{ playerId: string }>;
  /** The same, asked once per request (the rate limit asks too). */
  readonly playerOf: (request: FastifyRequest) => Promise<{ playerId: string }>;
  /** A rate limit per signed-in player. */
  readonly perPlayer: (perMinute: number) => RouteRateLimit;
  readonly service: PlayerArcade;
  readonly accounts: AccountReads;
}
