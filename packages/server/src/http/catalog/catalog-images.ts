import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { generatedAvatarSvg } from '../../services/avatar.js';
import { ApiTags, Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import { sendUploadedImage, uploadedImageResponses } from '../shared/uploaded-images.js';

/**
 * The images a page shows: a game's uploaded cover and a player's generated avatar. No
 * credentials, as the rest of the catalog; registered in the catalog plugin.
 */
export function catalogImageRoutes(instance: FastifyInstance): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = app.arcade;

  app.get(
    '/catalog/games/:gameId/cover',
    {
      schema: {
        operationId: 'getCatalogGameCover',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: "A game's uploaded cover image",
        description:
          "The 1920x1080 PNG or JPEG a developer uploaded in the portal (the game's coverUrl " +
          'points here), with an ETag and `cache-control: public, max-age=300`; answers 304 to a ' +
          'matching If-None-Match. Served for unpublished games too, so the portal can show it. ' +
          '404 cover_not_found when the game has no uploaded cover.',
        params: Type.Object({ gameId: Uuid('the game') }),
        response: uploadedImageResponses(['image/png', 'image/jpeg']),
      },
    },
    async (request, reply) => {
      const { gameId } = request.params;
      const cover = await arcade.reads.uploadedCover(gameId);
      return sendUploadedImage(request, reply, cover);
    },
  );

  app.get(
    '/avatars/:playerId.svg',
    {
      schema: {
        operationId: 'getAvatar',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: "A player's generated avatar",
        description:
          'The identicon of a player who has no avatar of their own: the `avatar` URL of leaders ' +
          'and player details points here. Drawn from the player id alone, so it never changes: ' +
          '`cache-control: public, max-age=31536000, immutable`.',
        params: Type.Object({ playerId: Uuid('the player') }),
        response: {
          200: {
            description: 'The image',
            content: { 'image/svg+xml': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (request, reply) =>
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        // An SVG opened on its own is a document: it may not run or load anything.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .type('image/svg+xml')
        .send(generatedAvatarSvg(request.params.playerId)),
  );
}
