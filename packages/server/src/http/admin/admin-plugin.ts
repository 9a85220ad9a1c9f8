import type { FastifyInstance } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { CoinopError } from '@coinop/core';
import { hashSecret } from '../../credentials/secrets.js';
import { Security } from '../../listener/openapi.js';
import { bearerToken } from '../../listener/bearer.js';
import { perClientFailures } from '../../listener/rate-limit.js';
import { adminAccountRoutes, adminHstRoutes } from './admin-accounts.js';
import { adminGameRoutes, adminLeaderboardRoutes } from './admin-games.js';
import { adminGameSettingsRoutes } from './admin-game-settings.js';
import { adminChainDepositRoutes, adminChainRoutes } from './admin-chain.js';
import {
  adminChainHaltRoutes,
  adminShortfallRoutes,
  adminSurplusRoutes,
} from './admin-chain-halts.js';
import { adminLookupRoutes, adminPlayerLookupRoutes } from './admin-lookups.js';
import { adminPublishRequestRoutes } from './admin-publish-requests.js';
import { adminTournamentRoutes } from './admin-tournaments.js';
import { reviewRoutes } from '../shared/reviews.js';
import { adminScoreVoidRoutes } from './admin-score-voids.js';
import { adminProfileRoutes } from './admin-profiles.js';
import { adminLedgerTransferRoutes } from './admin-ledger-transfers.js';
import { adminStatsRoutes } from './admin-stats.js';
import { adminSigningKeyRoutes } from './admin-signing-keys.js';
import { TAGS } from './admin-schemas.js';

/** The operator API behind `coinop admin`, guarded by the admin bearer token. */
export async function adminPlugin(
  app: FastifyInstance,
  options: { adminToken: string },
): Promise<void> {
  // Encapsulated: the hook guards only the routes of this plugin.
  requireAdminToken(app, options.adminToken);

  const arcade = app.arcade;
  adminAccountRoutes(app);
  adminHstRoutes(app);
  adminStatsRoutes(app);
  adminGameRoutes(app);
  adminGameSettingsRoutes(app);
  adminLeaderboardRoutes(app);
  adminSigningKeyRoutes(app);
  adminChainRoutes(app);
  adminChainDepositRoutes(app);
  adminChainHaltRoutes(app);
  adminSurplusRoutes(app);
  adminShortfallRoutes(app);
  adminLookupRoutes(app);
  adminPlayerLookupRoutes(app);
  adminPublishRequestRoutes(app);
  adminTournamentRoutes(app, TAGS);
  reviewRoutes(app, {
    audience: 'admin',
    tags: TAGS,
    security: Security.adminToken,
    who: 'The admin token.',
    reviewerOf: async () => ({ scope: { gameId: null }, actor: { kind: 'admin' } }),
    voider: arcade.voids,
  });
  adminScoreVoidRoutes(app);
  adminProfileRoutes(app);
  adminLedgerTransferRoutes(app);
}

/**
 * Answers every request of `app` without the admin token 401; logs each wrong token with the
 * client address, and refuses an address that failed too often (rate limit `admin-failures`).
 */
function requireAdminToken(app: FastifyInstance, adminToken: string): void {
  const tokenHash = hashSecret(adminToken);
  const failures = perClientFailures(
    app,
    app.config.rateLimits['admin-failures'],
    'failed admin authentications',
  );
  app.addHook('onRequest', async (request, reply) => {
    const presented = bearerToken(request);
    if (presented === null) {
      throw new CoinopError(
        'missing_bearer_token',
        'the admin API needs an Authorization: Bearer <admin token> header',
      );
    }
    // Before comparing: an address that failed too often gets no more guesses this minute.
    const refusal = await failures.refusal(request, reply);
    if (refusal) throw refusal;
    // Hashing both sides gives equal lengths, so the comparison is constant-time.
    if (!timingSafeEqual(hashSecret(presented), tokenHash)) {
      const { address, count } = await failures.failed(request);
      // The address, never the token: at most the limit's count a minute for each address.
      request.log.warn(
        { clientAddress: address, failuresThisMinute: count },
        `failed admin authentication from ${address}: the bearer token is not the admin token`,
      );
      throw new CoinopError('invalid_admin_token', 'the bearer token is not the admin token');
    }
  });
}
