import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { countText } from '@coinop/protocol';
import { playerTokenServices } from '../../credentials/player-token-services.js';
import { Security } from '../../listener/openapi.js';
import { mintTokenOfPlayer, requirePlayer } from '../../services/admin.js';
import {
  TAGS,
  KeysRevoked,
  KeysRotated,
  PlayerParams,
  PlayerTokenBody,
  PlayerTokenMinted,
} from './admin-schemas.js';

/**
 * The player-token signing keys (rotate, or revoke every one after a leak) and a player token
 * minted for testing a game server. Registered inside the admin plugin: the admin token only.
 */
export function adminSigningKeyRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = app.arcade;
  const signin = playerTokenServices(app.config, arcade);

  r.post(
    '/admin/keys/rotate',
    {
      schema: {
        operationId: 'adminRotateSigningKey',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Rotate the player-token signing key',
        description:
          'Retires the active signing key and signs with a new one from now on. The retired key ' +
          'stays in the JWKS until every token it signed has expired.',
        response: { 200: KeysRotated },
      },
    },
    async () => signin.keys.rotate(),
  );

  r.post(
    '/admin/keys/revoke',
    {
      schema: {
        operationId: 'adminRevokeSigningKeys',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Revoke every player-token signing key, after a leak',
        description:
          'Deletes every signing key (the active one, the next one and the retired ones still ' +
          'published) and signs with a new one from now on. Every player token issued before ' +
          'stops validating at once here, and at game servers once their JWKS cache expires: ' +
          'every player signs in again. A rotation keeps issued tokens valid; this does not.',
        response: { 200: KeysRevoked },
      },
    },
    async (request) => {
      const revoked = await signin.keys.revokeAll();
      request.log.warn(
        { kid: revoked.kid, revokedKids: revoked.revokedKids },
        `revoked ${countText(revoked.revokedKids.length, 'player-token signing key')}: every ` +
          'player token issued before is refused, players sign in again',
      );
      return revoked;
    },
  );

  r.post(
    '/admin/players/:playerId/token',
    {
      schema: {
        operationId: 'adminMintPlayerToken',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Mint a player token',
        description:
          'A player token as the sign-in service issues, for testing a game server without a ' +
          'browser.',
        params: PlayerParams,
        body: PlayerTokenBody,
        response: { 201: PlayerTokenMinted },
      },
    },
    async (request, reply) => {
      const player = await requirePlayer(arcade, request.params.playerId);
      const minted = await mintTokenOfPlayer(arcade, signin, {
        playerId: player.id,
        ttlSeconds: request.body.ttl,
        gameId: request.body.gameId ?? null,
        maxTtlSeconds: app.config.playerTokenTtlMaxSeconds,
      });
      reply.code(201);
      return minted;
    },
  );
}
