import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DeveloperPortal } from '../../services/developer-games.js';
import { COVER_UPLOAD_MAX_CHARS } from '../../services/cover-uploads.js';
import { SCREENSHOT_ALT_MAX, SCREENSHOTS_MAX } from '../../services/game-screenshots.js';
import { Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import type { Authenticate } from '../shared/authenticate.js';
import {
  ScreenshotListSchema,
  ScreenshotSchema,
  screenshotToWire,
} from '../shared/screenshot-schemas.js';
import { GAME_BODY_LIMIT, GameParams } from './developer-games-schemas.js';

const tags = ['developer'];
const who =
  "The game's developer, signed in to the portal (Authorization: Bearer <player access token> " +
  "of the developer's wallet); another developer's game answers 404 game_not_found.";

const ScreenshotBody = Type.Object(
  {
    image: Type.String({
      minLength: 1,
      maxLength: COVER_UPLOAD_MAX_CHARS,
      description:
        'A data:image/png;base64,… or data:image/jpeg;base64,… URL: 1920x1080, at most 2 MB ' +
        "decoded, checked as an uploaded cover is (errors name the field 'image').",
    }),
    alt: Type.String({
      minLength: 1,
      maxLength: SCREENSHOT_ALT_MAX,
      description: 'What the picture shows, for screen readers; not blank.',
    }),
  },
  { additionalProperties: false },
);
const ScreenshotParams = Type.Object({
  gameId: Uuid('The game.'),
  screenshotId: Uuid('The screenshot.'),
});

/**
 * A developer's screenshot gallery for a game (issue 31). Registered inside the /developer
 * plugin; every route needs the signed-in developer.
 */
export function developerScreenshotRoutes(app: FastifyInstance, authenticate: Authenticate): void {
  const portal = new DeveloperPortal(app.arcade);
  const { screenshots } = app.arcade;
  const webOrigin = app.config.webOrigins[0];
  const developerId = async (request: FastifyRequest) =>
    (await portal.developerOf((await authenticate(request)).playerId)).id;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/games/:gameId/screenshots',
    {
      schema: {
        operationId: 'developerListScreenshots',
        tags,
        security: Security.playerToken,
        summary: "One of my games' screenshots, in display order (published or not)",
        description: who,
        params: GameParams,
        response: { 200: ScreenshotListSchema },
      },
    },
    async (request) => {
      const shots = await screenshots.listOwn(await developerId(request), request.params.gameId);
      return { screenshots: shots.map((s) => screenshotToWire(webOrigin, s)) };
    },
  );

  r.post(
    '/games/:gameId/screenshots',
    {
      bodyLimit: GAME_BODY_LIMIT,
      schema: {
        operationId: 'developerAddScreenshot',
        tags,
        security: Security.playerToken,
        summary: 'Add a screenshot to one of my games, after the others',
        description:
          `${who} At most ${SCREENSHOTS_MAX} screenshots a game (409 screenshot_limit_reached). ` +
          'The image must be a 1920x1080 PNG or JPEG (422 cover_not_image / cover_wrong_size).',
        params: GameParams,
        body: ScreenshotBody,
        response: { 201: ScreenshotSchema },
      },
    },
    async (request, reply) => {
      const shot = await screenshots.add(
        await developerId(request),
        request.params.gameId,
        request.body,
      );
      return reply.code(201).send(screenshotToWire(webOrigin, shot));
    },
  );

  r.delete(
    '/games/:gameId/screenshots/:screenshotId',
    {
      schema: {
        operationId: 'developerDeleteScreenshot',
        tags,
        security: Security.playerToken,
        summary: 'Delete a screenshot of one of my games',
        description: `${who} The others keep their order.`,
        params: ScreenshotParams,
        response: { 204: { description: 'Deleted', type: 'null' } },
      },
    },
    async (request, reply) => {
      const { gameId, screenshotId } = request.params;
      await screenshots.remove(await developerId(request), gameId, screenshotId);
      return reply.code(204).send();
    },
  );
}
