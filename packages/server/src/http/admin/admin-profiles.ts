import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Security } from '../../listener/openapi.js';
import { requirePlayer } from '../../services/admin.js';
import { ProfileService } from '../../services/profiles.js';
import { ProfileResetSchema, ResetProfileBody } from '../shared/profile-schemas.js';
import { PlayerRefParams } from './admin-lookups.js';
import { TAGS } from './admin-schemas.js';

/**
 * The operator resets an abusive name and avatar. Registered inside the admin plugin, so its
 * admin-token hook guards it: only the operator may call it.
 */
export function adminProfileRoutes(instance: FastifyInstance): void {
  const r = instance.withTypeProvider<TypeBoxTypeProvider>();
  const profiles = new ProfileService(r.arcade);
  r.post(
    '/admin/players/:player/reset-profile',
    {
      schema: {
        operationId: 'adminResetPlayerProfile',
        tags: TAGS,
        security: Security.adminToken,
        summary: "Reset a player's name and avatar",
        description:
          'The name goes back to the default (the short wallet form) and an uploaded avatar is ' +
          'removed; the player may choose again. The previous name and the reason are kept in ' +
          '`player_profile_resets`. The player by id or wallet; 404 `player_not_found`.',
        params: PlayerRefParams,
        body: ResetProfileBody,
        response: { 200: ProfileResetSchema },
      },
    },
    async (request) => {
      const player = await requirePlayer(r.arcade, request.params.player);
      return profiles.reset(player, request.body.reason.trim());
    },
  );
}
