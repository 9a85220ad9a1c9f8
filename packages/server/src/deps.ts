import type { Clock, Ids } from '@coinop/core';
import type { DestinationStream } from 'pino';
import type { SecretBox } from './credentials/secret-box.js';
import type { Redis } from 'ioredis';
import type { ArcadeMetrics } from './metrics/arcade-metrics.js';
import type { Db } from './store/db.js';
import type { ScoreVerification } from './services/score-rules-gate.js';
import type { WebForwarding } from './listener/client-address.js';

/**
 * Its own module so the services can name what they are built from without importing the
 * Fastify app that builds them (an import loop through every route plugin).
 */
/** What the API needs from outside: storage, time, ids, and the secrets it signs with. */
export interface ApiDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  /** HMAC key for write tokens; shared by every API process through storage. */
  readonly writeTokenKey: Uint8Array;
  /** Seals and opens the secrets in storage (the player-token signing keys). */
  readonly secrets: SecretBox;
  /** The admin bearer token the /admin API accepts. */
  readonly adminToken: string;
  /** Certificate and key (PEM) to serve HTTPS; plain HTTP when absent. */
  readonly https?: { readonly cert: string | Buffer; readonly key: string | Buffer } | undefined;
  /** This process's web listener's forwarding secret: rate limits then count each browser. */
  readonly webForwarding?: WebForwarding | null;
  /** Where the rate limits' counts are shared with other processes (`--redis-url`). */
  readonly redis?: Redis | null;
  /**
   * Runs the games' replay verifiers and tells which games have one (issue 30). Absent, the
   * arcade's own sandbox and the uploaded verifiers; null, none: no tier may require replays and
   * a score that needs one is refused `replay_rejected`.
   */
  readonly scoreVerification?: ScoreVerification | null;
  /** The process's metrics; absent, none are recorded. */
  readonly metrics?: ArcadeMetrics | null;
  /** Where to log instead of standard output (JSON lines); see `ListenerOptions`. */
  readonly logDestination?: DestinationStream;
}
