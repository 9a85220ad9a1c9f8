import type { FastifyInstance } from 'fastify';
import { ApiTags, Security } from '../listener/openapi.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type {
  SessionToken,
  WalletChallenge,
  WalletChallengeRequest,
  WalletSignInRequest,
} from '@coinop/protocol';
import type { SchemaMatches } from '../listener/wire-check.js';
import type { PlayerAuthenticator } from '../credentials/player-auth.js';
import {
  issueChallenge,
  renewWebSession,
  verifySignIn,
  type WalletSignInDeps,
} from './wallet-sign-in.js';
import { perClientAddress } from '../listener/rate-limit.js';
import { Patterns } from '../listener/string-patterns.js';

const ChallengeBody = Type.Object(
  {
    address: Type.String({
      ...Patterns.walletAddress,
      description: 'Wallet address: 0x and 40 hex digits (EIP-55 checksum checked if mixed case)',
    }),
  },
  { additionalProperties: false },
);
const ChallengeResponse = Type.Object({
  message: Type.String({ description: 'The EIP-4361 message to sign with personal_sign' }),
  nonce: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});

/** EIP-4361 messages are a few hundred characters; contract wallet signatures a few hundred bytes. */
const VerifyBody = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 4096 }),
    signature: Type.String({
      pattern: '^0x([0-9a-fA-F]{2})+$',
      maxLength: 8192,
      description: 'personal_sign signature, 0x-prefixed hex',
    }),
  },
  { additionalProperties: false },
);
const VerifyResponse = Type.Object({
  access_token: Type.String({
    description:
      'A web session token (RS256 JWT, audience coinop:web) for the arcade web app: renew it at ' +
      'POST /session/renew before it expires',
  }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Lifetime of access_token in seconds' }),
  playerId: Type.String({ format: 'uuid' }),
});

declare const _challengeBody: SchemaMatches<typeof ChallengeBody, WalletChallengeRequest>;
declare const _challenge: SchemaMatches<typeof ChallengeResponse, WalletChallenge>;
declare const _verifyBody: SchemaMatches<typeof VerifyBody, WalletSignInRequest>;
declare const _sessionToken: SchemaMatches<typeof VerifyResponse, SessionToken>;

/** Wallet sign-in with EIP-4361 (Sign-In with Ethereum): challenge, then verify. */
export async function walletRoutes(
  app: FastifyInstance,
  options: { deps: WalletSignInDeps; players: PlayerAuthenticator; rateLimitPerMinute: number },
): Promise<void> {
  const { deps, players } = options;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/wallet/challenge',
    {
      config: perClientAddress(options.rateLimitPerMinute),
      schema: {
        tags: [ApiTags.walletSignIn],
        operationId: 'createSignInChallenge',
        security: Security.none,
        summary: 'Ask for a sign-in message for a wallet to sign (EIP-4361)',
        body: ChallengeBody,
        response: { 200: ChallengeResponse },
      },
    },
    async (request) => {
      const origin = request.headers.origin;
      const challenge = await issueChallenge(
        deps,
        request.body.address,
        typeof origin === 'string' ? origin : null,
      );
      return { ...challenge, expiresAt: challenge.expiresAt.toISOString() };
    },
  );

  r.post(
    '/session/renew',
    {
      config: perClientAddress(options.rateLimitPerMinute),
      schema: {
        tags: [ApiTags.walletSignIn],
        operationId: 'renewWebSession',
        security: Security.playerToken,
        summary: 'Renew a web session without signing again',
        description:
          "With the web session as bearer token, within the session's maximum age from the " +
          "wallet's signature: a new web session.",
        response: { 200: VerifyResponse },
      },
    },
    async (request) => {
      const session = await players.authenticate(request);
      const renewed = await renewWebSession(deps, session);
      return {
        access_token: renewed.accessToken,
        token_type: 'Bearer' as const,
        expires_in: renewed.expiresInSeconds,
        playerId: session.playerId,
      };
    },
  );

  r.post(
    '/wallet/verify',
    {
      config: perClientAddress(options.rateLimitPerMinute),
      schema: {
        tags: [ApiTags.walletSignIn],
        operationId: 'verifyWalletSignIn',
        security: Security.none,
        summary: 'Sign in with the signed message: a player token',
        description: 'Creates the player of the wallet on its first sign-in.',
        body: VerifyBody,
        response: { 200: VerifyResponse },
      },
    },
    async (request) => {
      const signedIn = await verifySignIn(deps, request.body);
      return {
        access_token: signedIn.accessToken,
        token_type: 'Bearer' as const,
        expires_in: signedIn.expiresInSeconds,
        playerId: signedIn.player.id,
      };
    },
  );
}
