import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { RateLimitedResponse, Security } from '../../listener/openapi.js';
import { ProfileService } from '../../services/profiles.js';
import { AVATAR_MAX_CHARS } from '../../services/avatar-uploads.js';
import { PlayerIdentitySchema, SetAvatarBody, SetNameBody } from '../shared/profile-schemas.js';
import type { PlayerRouteContext } from './player-context.js';
import { TAGS } from './player-schemas.js';

/** The JSON around an avatar data URL is a few dozen bytes; the rest is the image. */
const AVATAR_BODY_LIMIT = AVATAR_MAX_CHARS + 1024;

/**
 * The signed-in player chooses their display name and avatar (docs/concepts/profiles.md).
 * Player token only; counted by the `profile` rate limit. Registered in the player plugin.
 */
export function playerProfileRoutes(instance: FastifyInstance, context: PlayerRouteContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const profiles = new ProfileService(app.arcade);
  const { playerOf, perPlayer } = context;
  const limit = perPlayer(app.config.rateLimits.profile);

  app.patch(
    '/me',
    {
      config: limit,
      schema: {
        operationId: 'playerSetName',
        tags: TAGS,
        summary: 'Choose a display name',
        description:
          'Normalised (NFKC, trimmed, one space between words) and checked against the rules of ' +
          'docs/concepts/profiles.md: 400 `name_invalid` naming the rule broken; 409 ' +
          '`name_taken` when another player holds the name in any letter case. Boards, ' +
          'tournaments and the console show the new name at once.',
        security: Security.playerToken,
        body: SetNameBody,
        response: { 200: PlayerIdentitySchema, 429: RateLimitedResponse },
      },
    },
    async (request) => {
      const { playerId } = await playerOf(request);
      return profiles.setName(playerId, request.body.name);
    },
  );

  app.put(
    '/me/avatar',
    {
      config: limit,
      bodyLimit: AVATAR_BODY_LIMIT,
      schema: {
        operationId: 'playerSetAvatar',
        tags: TAGS,
        summary: 'Upload an avatar',
        description:
          'A PNG, JPEG or WebP of 64 to 2048 pixels a side, at most 512 KiB, sent as a data URL ' +
          'and checked like an uploaded cover (the format read from the bytes): 422 ' +
          '`avatar_invalid` naming the check that failed. Served at ' +
          '`/catalog/players/{playerId}/avatar`.',
        security: Security.playerToken,
        body: SetAvatarBody,
        response: { 200: PlayerIdentitySchema, 429: RateLimitedResponse },
      },
    },
    async (request) => {
      const { playerId } = await playerOf(request);
      return profiles.setAvatar(playerId, request.body.image);
    },
  );

  app.delete(
    '/me/avatar',
    {
      config: limit,
      schema: {
        operationId: 'playerRemoveAvatar',
        tags: TAGS,
        summary: 'Remove the uploaded avatar, back to the generated one',
        description: 'Answers the same when there is no uploaded avatar.',
        security: Security.playerToken,
        response: { 200: PlayerIdentitySchema, 429: RateLimitedResponse },
      },
    },
    async (request) => {
      const { playerId } = await playerOf(request);
      return profiles.removeAvatar(playerId);
    },
  );
}
