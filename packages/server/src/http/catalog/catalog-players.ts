import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiTags, Security } from '../../listener/openapi.js';
import { ProfileService } from '../../services/profiles.js';
import { PublicPlayerProfileSchema } from '../shared/profile-schemas.js';
import { Uuid } from '../shared/schemas.js';
import { sendUploadedImage, uploadedImageResponses } from '../shared/uploaded-images.js';

/**
 * The public player page and uploaded avatars: no credentials, as the rest of the catalog.
 * Nothing private (no wallet, no balance) and nothing of unpublished games. Registered in the
 * catalog plugin.
 */
export function catalogPlayerRoutes(instance: FastifyInstance): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const profiles = new ProfileService(app.arcade);
  const params = Type.Object({ playerId: Uuid('the player') });

  app.get(
    '/catalog/players/:playerId',
    {
      schema: {
        operationId: 'getCatalogPlayer',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: "A player's public page: name, avatar, bests and tournament prizes",
        description:
          'Their best and rank on every live tier of a published game, best rank first, and their ' +
          'places in closed tournament rounds, newest first (at most 50). No wallet and no ' +
          'balance. 404 `player_not_found`.',
        params,
        response: { 200: PublicPlayerProfileSchema },
      },
    },
    async (request) => profiles.publicProfile(request.params.playerId),
  );

  app.get(
    '/catalog/players/:playerId/avatar',
    {
      schema: {
        operationId: 'getCatalogPlayerAvatar',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: "A player's uploaded avatar",
        description:
          'The picture the player uploaded (their `avatar` URL points here, with a version query), ' +
          'with an ETag and `cache-control: public, max-age=300`; 304 to a matching ' +
          'If-None-Match. 404 `avatar_not_found` when they use the generated one.',
        params,
        response: uploadedImageResponses(['image/png', 'image/jpeg', 'image/webp']),
      },
    },
    async (request, reply) => {
      const avatar = await profiles.avatarImage(request.params.playerId);
      // Opened on its own, the image is a document: it may not run or load anything.
      reply.header('content-security-policy', "default-src 'none'");
      return sendUploadedImage(request, reply, avatar);
    },
  );
}
