import type { FastifyInstance } from 'fastify';
import { createFastify } from './http/fastify.js';
import type { Clock, Ids } from '@coinop/core';
import type { SecretBox } from './auth/secret-box.js';
import type { Config } from './config.js';
import type { Db } from './store/db.js';
import { errorHandlerPlugin } from './http/error-handler.js';
import { openApiPlugin } from './http/openapi.js';
import { gameServerPlugin } from './http/game-server.js';
import { registrationPlugin } from './http/registration.js';
import { adminPlugin } from './http/admin.js';
import { DEVELOPER_PREFIX, developerPlugin } from './http/developer.js';
import { catalogPlugin } from './http/catalog.js';
import { PLAYER_PREFIX, playerPlugin } from './http/player.js';
import { Arcade } from './services/arcade.js';
import { sharedSchemas } from './http/schemas.js';

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
}

declare module 'fastify' {
  interface FastifyInstance {
    arcade: Arcade;
    config: Config;
  }
}

/** Builds the arcade API ({base_url}) as a Fastify instance. Listens nowhere. */
export async function buildApi(config: Config, deps: ApiDeps): Promise<FastifyInstance> {
  const app = createFastify(config, deps.https);

  app.decorate('config', config);
  const arcade = new Arcade(config, deps);
  await arcade.bootstrap();
  app.addHook('onClose', () => arcade.stop());
  app.decorate('arcade', arcade);
  for (const schema of sharedSchemas) app.addSchema(schema);
  await app.register(errorHandlerPlugin);
  await app.register(openApiPlugin);
  await app.register(gameServerPlugin);
  await app.register(registrationPlugin);
  await app.register(adminPlugin, { adminToken: deps.adminToken });
  await app.register(developerPlugin, { prefix: DEVELOPER_PREFIX });
  await app.register(catalogPlugin);
  await app.register(playerPlugin, { prefix: PLAYER_PREFIX });
  return app;
}
