import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiTags, Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import { sendUploadedImage, uploadedImageResponses } from '../shared/uploaded-images.js';
import { ScreenshotListSchema, screenshotToWire } from '../shared/screenshot-schemas.js';

/**
 * A game's screenshot gallery as any visitor sees it (issue 31): the list for a published game,
 * and each image, served as covers are. No credentials.
 */
export function catalogScreenshotRoutes(instance: FastifyInstance): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { arcade, config } = app;
  const webOrigin = config.webOrigins[0];

  app.get(
    '/catalog/games/:gameId/screenshots',
    {
      schema: {
        operationId: 'listCatalogGameScreenshots',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: "A published game's screenshots, in display order",
        params: Type.Object({ gameId: Uuid('the game') }),
        response: { 200: ScreenshotListSchema },
      },
    },
    async (request) => {
      const { gameId } = request.params;
      await arcade.discovery.publishedGame(arcade.record.id, gameId);
      const shots = await arcade.screenshots.list(gameId);
      return { screenshots: shots.map((s) => screenshotToWire(webOrigin, s)) };
    },
  );

  app.get(
    '/catalog/games/:gameId/screenshots/:screenshotId',
    {
      schema: {
        operationId: 'getCatalogGameScreenshot',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: "One of a game's screenshots",
        description:
          'The PNG or JPEG the developer uploaded, served as covers are: an ETag, ' +
          '`cache-control: public, max-age=300`, 304 to a matching If-None-Match; for unpublished ' +
          'games too, so the portal can show them.',
        params: Type.Object({ gameId: Uuid('the game'), screenshotId: Uuid('the screenshot') }),
        response: uploadedImageResponses(['image/png', 'image/jpeg']),
      },
    },
    async (request, reply) => {
      const { gameId, screenshotId } = request.params;
      const shot = await arcade.screenshots.image(gameId, screenshotId);
      return sendUploadedImage(request, reply, shot);
    },
  );
}
