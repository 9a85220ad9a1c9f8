import { healthRoutes } from './listener/health.js';
import { closeUnansweredOnClose } from './listener/close-unanswered.js';
import type { FastifyInstance } from 'fastify';
import { createFastify } from './listener/fastify.js';
import { signinPublicUrl, type Config } from './config.js';
import type { ApiDeps } from './deps.js';
import { errorHandlerPlugin } from './listener/error-handler.js';
import { apiDocument, openApiPlugin } from './listener/openapi.js';
import { gameServerPlugin } from './http/game-server/game-server-plugin.js';
import { registrationPlugin } from './http/developer/registration-plugin.js';
import { adminPlugin } from './http/admin/admin-plugin.js';
import { DEVELOPER_PREFIX, developerPlugin } from './http/developer/developer-plugin.js';
import { catalogPlugin } from './http/catalog/catalog-plugin.js';
import { arcadeSettingsPlugin } from './http/catalog/arcade-settings-plugin.js';
import { PLAYER_PREFIX, playerPlugin } from './http/player/player-plugin.js';
import { ArcadeServices } from './services/arcade-services.js';
import { sharedSchemas } from './http/shared/schemas.js';
import { registerRateLimit } from './listener/rate-limit.js';
import { API_CSP } from './listener/security-headers.js';

export type { ApiDeps } from './deps.js';

declare module 'fastify' {
  interface FastifyInstance {
    arcade: ArcadeServices;
    config: Config;
  }
}

/** Builds the arcade API (at `config.publicUrl`) as a Fastify instance. Listens nowhere. */
export async function buildApi(config: Config, deps: ApiDeps): Promise<FastifyInstance> {
  const app = createFastify(config, {
    name: 'api',
    https: deps.https,
    metrics: deps.metrics ?? null,
    logDestination: deps.logDestination,
    contentSecurityPolicy: API_CSP,
    // Players' avatars and uploaded covers are images the web app and games load from here.
    resourcePolicy: 'cross-origin',
    // JSON and images, and /docs (which sets a page's headers of its own, openapi.ts).
    pages: false,
  });

  app.decorate('config', config);
  const arcade = new ArcadeServices(config, deps);
  try {
    await arcade.bootstrap();
  } catch (error) {
    // What bootstrap started (LISTEN connections, the live feed) would keep the process alive
    // after a refused start (an operator key that does not open), so it stops here.
    await arcade.stop().catch(() => undefined);
    await app.close();
    throw error;
  }
  app.addHook('onClose', () => arcade.stop());
  closeUnansweredOnClose(app);
  // Live streams never end by themselves, and closing waits for every response to end.
  app.addHook('preClose', async () => arcade.live.closeStreams());
  app.decorate('arcade', arcade);
  for (const schema of sharedSchemas) app.addSchema(schema);
  await app.register(errorHandlerPlugin, {
    availability: deps.db.availability,
    retryAfterSeconds: config.databaseRetryAfterSeconds,
  });
  // Before the routes: it fits each rate-limited route with its hook as the route is added.
  await registerRateLimit(app, {
    forwarding: deps.webForwarding ?? null,
    redis: deps.redis ?? null,
  });
  await app.register(openApiPlugin, apiDocument(config.publicUrl, signinPublicUrl(config)));
  await app.register(gameServerPlugin);
  await app.register(registrationPlugin);
  await app.register(adminPlugin, { adminToken: deps.adminToken });
  await app.register(developerPlugin, { prefix: DEVELOPER_PREFIX });
  await app.register(catalogPlugin);
  await app.register(arcadeSettingsPlugin);
  await app.register(playerPlugin, { prefix: PLAYER_PREFIX });
  await healthRoutes(app, deps.db);
  return app;
}
