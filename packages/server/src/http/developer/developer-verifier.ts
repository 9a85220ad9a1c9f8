import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CoinopError } from '@coinop/core';
import { GameVerifiers } from '../../services/game-verifiers.js';
import type { DeveloperRecord } from '../../services/developer-games.js';
import { RateLimitedResponse } from '../../listener/openapi.js';
import { oncePerRequest, perKey } from '../../listener/rate-limit.js';
import { GameParams } from './developer-games-schemas.js';
import {
  CheckBody,
  CheckResultSchema,
  VERIFIER_MEDIA_TYPES,
  VerifierSchema,
  VerifierVersionSchema,
  checkToWire,
  verifierToWire,
  versionToWire,
} from './developer-verifier-schemas.js';

export interface DeveloperVerifierRoutesOptions {
  /** The developer of the request: the portal's session or the developer's API key. */
  readonly developerOf: (request: FastifyRequest) => Promise<DeveloperRecord>;
  readonly security: readonly Record<string, readonly string[]>[];
  readonly tags: readonly string[];
  readonly who: string;
}

// An upload is at most 256 KiB (a larger one is answered verifier_too_large, not cut off); a
// check carries a module and a replay, JSON-escaped.
const UPLOAD_BODY_LIMIT = 1024 * 1024;
const CHECK_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * A game's replay verifier for its developer (docs/reference/verifier.md): upload, read, remove,
 * and try on a replay. Registered in the /developer plugin.
 */
export function developerVerifierRoutes(
  instance: FastifyInstance,
  options: DeveloperVerifierRoutesOptions,
): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const verifiers = new GameVerifiers(app.arcade);
  const developer = oncePerRequest(options.developerOf);
  // Uploads and checks both run the sandbox the scores share: one budget per developer.
  const sandboxLimit = perKey(
    app.config.rateLimits['verifier-checks'],
    'this developer',
    async (request) => (await developer(request)).id,
  );
  const common = { tags: [...options.tags], security: options.security.map((s) => ({ ...s })) };
  // The module arrives as it is on disk, not wrapped in JSON.
  instance.addContentTypeParser(
    [...VERIFIER_MEDIA_TYPES],
    { parseAs: 'string', bodyLimit: UPLOAD_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  const routes: VerifierRoutes = { verifiers, developer, sandboxLimit, common, who: options.who };
  uploadRoutes(instance, routes);
  checkRoute(instance, routes);
}

/** What the verifier routes share. */
interface VerifierRoutes {
  readonly verifiers: GameVerifiers;
  readonly developer: (request: FastifyRequest) => Promise<DeveloperRecord>;
  readonly sandboxLimit: ReturnType<typeof perKey>;
  readonly common: { tags: string[]; security: Record<string, readonly string[]>[] };
  readonly who: string;
}

/** Upload a version, read the current one, remove it. */
function uploadRoutes(instance: FastifyInstance, routes: VerifierRoutes): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { verifiers, developer, sandboxLimit, common } = routes;
  const options = routes;
  app.put(
    '/games/:gameId/verifier',
    {
      bodyLimit: UPLOAD_BODY_LIMIT,
      config: sandboxLimit,
      schema: {
        ...common,
        operationId: 'developerUploadVerifier',
        summary: 'Upload my game’s replay verifier',
        description:
          'The body is the module itself (`Content-Type: application/javascript` or ' +
          '`text/javascript`): one self-contained ES module exporting a function `verify`. It ' +
          'is loaded in the sandbox first, then stored as the next version, which is current ' +
          'at once. Errors: 400 verifier_invalid (the message says what: a syntax error with ' +
          'its line, no `verify` export), 413 verifier_too_large (over 256 KiB), 415 ' +
          `unsupported_media_type. ${options.who}`,
        params: GameParams,
        body: {
          content: Object.fromEntries(
            VERIFIER_MEDIA_TYPES.map((type) => [type, { schema: Type.String() }]),
          ),
        },
        response: { 201: VerifierVersionSchema, 429: RateLimitedResponse },
      },
    },
    async (request, reply) => {
      // Only the JavaScript parser above yields a string; JSON or a form yields something else.
      if (typeof request.body !== 'string') {
        throw new CoinopError(
          'unsupported_media_type',
          `the body must be the module itself, as ${VERIFIER_MEDIA_TYPES.join(' or ')}`,
        );
      }
      const uploaded = await verifiers.upload(
        await developer(request),
        request.params.gameId,
        request.body,
      );
      reply.code(201);
      return versionToWire(uploaded);
    },
  );

  app.get(
    '/games/:gameId/verifier',
    {
      schema: {
        ...common,
        operationId: 'developerGetVerifier',
        summary: 'My game’s current replay verifier',
        description: `Its version, digest, size and source. Errors: 404 verifier_not_found. ${options.who}`,
        params: GameParams,
        response: { 200: VerifierSchema },
      },
    },
    async (request) =>
      verifierToWire(await verifiers.current(await developer(request), request.params.gameId)),
  );

  app.delete(
    '/games/:gameId/verifier',
    {
      schema: {
        ...common,
        operationId: 'developerRemoveVerifier',
        summary: 'Remove my game’s replay verifier',
        description:
          'The game has no verifier afterwards (its versions stay on record, for reviews). ' +
          'Errors: 404 verifier_not_found, 409 verifier_in_use (a rule of the game or a tier ' +
          `requires replays). ${options.who}`,
        params: GameParams,
        response: { 200: VerifierVersionSchema },
      },
    },
    async (request) =>
      versionToWire(await verifiers.remove(await developer(request), request.params.gameId)),
  );
}

/** The developer's test bench: what a score with this replay would get. */
function checkRoute(instance: FastifyInstance, routes: VerifierRoutes): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { verifiers, developer, sandboxLimit, common } = routes;
  const options = routes;
  app.post(
    '/games/:gameId/verifier/check',
    {
      bodyLimit: CHECK_BODY_LIMIT,
      config: sandboxLimit,
      schema: {
        ...common,
        operationId: 'developerCheckVerifier',
        summary: 'Try my game’s verifier on a replay',
        description:
          'Runs the current verifier, or the module given as `source`, in the sandbox the ' +
          'scores use, with its limits, and answers what a score with this replay would get: ' +
          'the developer’s test bench. A refusal is a 200 answer with `ok: false`. Errors: 404 ' +
          'verifier_not_found (no `source` and no verifier), 413 replay_too_large, 413 ' +
          `verifier_too_large. ${options.who}`,
        params: GameParams,
        body: CheckBody,
        response: { 200: CheckResultSchema, 429: RateLimitedResponse },
      },
    },
    async (request) =>
      checkToWire(
        await verifiers.check(await developer(request), request.params.gameId, request.body),
      ),
  );
}
