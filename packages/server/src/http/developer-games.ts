import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { unitsToHstNumber } from '@coinop/core';
import type {
  ClientSecret,
  DeveloperGame,
  DeveloperGameList,
  DeveloperGameRequest,
  DeveloperGameUpdateRequest,
  DeveloperTier,
  GameClient,
  GameStats,
  RetiredTier,
  TierRequest,
  TierUpdateRequest,
} from '@coinop/protocol';
import type {
  DeveloperRecord,
  GameClientSummary,
  TierRecord,
} from '../services/developer-games.js';
import { COVER_UPLOAD_MAX_CHARS } from '../services/developer-covers.js';
import { DeveloperPortal, type DeveloperGameView } from '../services/developer-games.js';
import { GAME_FIELD_LIMITS } from '../services/registration.js';
import type { CoverCheck } from '../services/cover.js';
import { Security } from './openapi.js';
import {
  LeaderboardSchema,
  MAX_COST_HST,
  ScoreDisplaySchema,
  Uuid,
  coverUrl,
  mutableFields,
  text,
} from './schemas.js';
import { leaderboardToWire } from './wire.js';
import type { SchemaMatches, ShapeMatches } from '../listener/wire-check.js';

const TAGS = ['developer'];
/** Room for the largest cover upload plus the other fields: the largest body any route takes. */
export const GAME_BODY_LIMIT = COVER_UPLOAD_MAX_CHARS + 64 * 1024;

const bearer =
  'Authorization: Bearer <player access token> of the developer’s wallet (401 ' +
  'missing_bearer_token / invalid_player_token); the developer account is created on first use.';
const ownGame = 'A game of another developer answers 404 game_not_found.';

const date = (description: string) => Type.String({ format: 'date-time', description });

const TierSchema = Type.Pick(
  LeaderboardSchema,
  ['id', 'name', 'cost', 'currency', 'formattedCostString', 'leadersMax'],
  { description: 'A live leaderboard tier of the game.' },
);
const ClientSchema = Type.Object(
  {
    clientId: Type.String({ description: 'The game server’s client_id.' }),
    createdAt: date('When the client was created.'),
    revokedAt: Type.Union([date('When it was revoked.'), Type.Null()]),
  },
  { description: 'A game server client; its secret is never shown again.' },
);
const DeveloperGameSchema = Type.Object(
  {
    id: Uuid('The game id (gameId).'),
    name: Type.String(),
    description: Type.String(),
    category: Type.String(),
    tagLine: Type.String(),
    developerInfo: Type.String(),
    url: Type.String({ description: 'Where the game is hosted; empty until set.' }),
    coverUrl: Type.String({
      description:
        'The cover image: the URL given, or where the arcade serves an uploaded one ' +
        '(…/api/catalog/games/{gameId}/cover?v=…).',
    }),
    scoreDisplay: ScoreDisplaySchema,
    prodDomain: Type.Union([Type.String(), Type.Null()]),
    published: Type.Boolean({ description: 'Whether an operator listed it in the catalog.' }),
    createdAt: date('When the game was registered.'),
    leaderboards: Type.Array(TierSchema, { description: 'Live tiers, in display order.' }),
    clients: Type.Array(ClientSchema, { description: 'Clients, live and revoked, oldest first.' }),
  },
  { description: 'A game of the signed-in developer, as the developer portal shows it.' },
);
type DeveloperGameWire = Static<typeof DeveloperGameSchema>;
const DeveloperGameListSchema = Type.Object({ games: Type.Array(DeveloperGameSchema) });

const coverImage = Type.String({
  minLength: 1,
  maxLength: COVER_UPLOAD_MAX_CHARS,
  description:
    'An uploaded cover: a data:image/png;base64,… or data:image/jpeg;base64,… URL, at most 2 MB ' +
    'decoded, 1920x1080. The arcade stores it and serves it at GET /catalog/games/{gameId}/cover. ' +
    'Not together with coverUrl.',
});
const coverFields = { coverUrl: Type.Optional(coverUrl), coverImage: Type.Optional(coverImage) };

const CreateBody = Type.Object(
  {
    name: text(GAME_FIELD_LIMITS.name, 'Game name, 1 to 100 characters; fixed once registered.', 1),
    description: Type.Optional(text(GAME_FIELD_LIMITS.description, 'Short description.')),
    scoreDisplay: Type.Optional(ScoreDisplaySchema),
    ...coverFields,
    prodDomain: Type.Optional(mutableFields.prodDomain),
    url: Type.Optional(mutableFields.url),
    category: Type.Optional(mutableFields.category),
    tagLine: Type.Optional(mutableFields.tagLine),
    developerInfo: Type.Optional(mutableFields.developerInfo),
  },
  {
    additionalProperties: false,
    description:
      'A new game: as POST /game/create, with description optional (default empty), ' +
      'scoreDisplay optional (default NORMAL), and a cover as coverUrl or coverImage (one of them).',
  },
);
const UpdateBody = Type.Object(
  {
    description: Type.Optional(mutableFields.description),
    ...coverFields,
    prodDomain: Type.Optional(mutableFields.prodDomain),
    url: Type.Optional(mutableFields.url),
    category: Type.Optional(mutableFields.category),
    tagLine: Type.Optional(mutableFields.tagLine),
    developerInfo: Type.Optional(mutableFields.developerInfo),
    name: Type.Optional(Type.Unknown({ description: 'Immutable: 409 field_immutable.' })),
    scoreDisplay: Type.Optional(Type.Unknown({ description: 'Immutable: 409 field_immutable.' })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'Any mutable field; at least one.',
  },
);

const tierName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Name' });
const tierCost = Type.Integer({
  minimum: 0,
  maximum: MAX_COST_HST,
  description: 'Cost of one play in whole HST.',
});
const AddTierBody = Type.Object(
  {
    name: tierName,
    cost: tierCost,
    leadersMax: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Leaders kept; default from config.' }),
    ),
  },
  { additionalProperties: false },
);
const PatchTierBody = Type.Object(
  { name: Type.Optional(tierName), cost: Type.Optional(tierCost) },
  { additionalProperties: false, minProperties: 1, description: 'A new name or cost, or both.' },
);

const NewClientSchema = Type.Object({
  clientId: Type.String(),
  clientSecret: Type.String({ description: 'Shown only in this response; stored hashed.' }),
  createdAt: date('When the client was created.'),
});

const PlayStatusSchema = Type.Union([
  Type.Literal('open'),
  Type.Literal('scored'),
  Type.Literal('expired'),
  Type.Literal('voided'),
]);
const StatsSchema = Type.Object({
  plays: Type.Object({
    total: Type.Integer(),
    open: Type.Integer(),
    scored: Type.Integer(),
    expired: Type.Integer(),
    voided: Type.Integer({
      description: 'Open plays voided when the operator suspended the game.',
    }),
  }),
  scores: Type.Integer({ description: 'Scores submitted.' }),
  hstEarned: Type.Number({
    description:
      'HST credited to the developer by this game: its share of settled plays plus in-game ' +
      'purchases.',
  }),
  recentPlays: Type.Array(
    Type.Object({
      playId: Uuid('The play.'),
      playerName: Type.String(),
      leaderboardName: Type.String(),
      cost: Type.Number({ description: 'HST the play locked.' }),
      status: PlayStatusSchema,
      score: Type.Union([Type.Number(), Type.Null()]),
      createdAt: date('When the play was opened.'),
    }),
    { description: 'The 20 newest plays, newest first.' },
  ),
});

const RetiredTierSchema = Type.Object({ id: Uuid('The tier.'), retired: Type.Literal(true) });

declare const _tier: SchemaMatches<typeof TierSchema, DeveloperTier>;
declare const _client: SchemaMatches<typeof ClientSchema, GameClient>;
declare const _game: SchemaMatches<typeof DeveloperGameSchema, DeveloperGame>;
declare const _gameList: SchemaMatches<typeof DeveloperGameListSchema, DeveloperGameList>;
declare const _createBody: SchemaMatches<typeof CreateBody, DeveloperGameRequest>;
// name and scoreDisplay are in the schema only to answer 409 field_immutable.
declare const _updateBody: ShapeMatches<
  Omit<Static<typeof UpdateBody>, 'name' | 'scoreDisplay'>,
  DeveloperGameUpdateRequest
>;
declare const _addTierBody: SchemaMatches<typeof AddTierBody, TierRequest>;
declare const _patchTierBody: SchemaMatches<typeof PatchTierBody, TierUpdateRequest>;
declare const _retiredTier: SchemaMatches<typeof RetiredTierSchema, RetiredTier>;
declare const _newClient: SchemaMatches<typeof NewClientSchema, ClientSecret>;
declare const _stats: SchemaMatches<typeof StatsSchema, GameStats>;

const GameParams = Type.Object({ gameId: Uuid('The game.') });
const TierParams = Type.Object({ gameId: Uuid('The game.'), leaderboardId: Uuid('The tier.') });
const ClientParams = Type.Object({
  gameId: Uuid('The game.'),
  clientId: Type.String({ minLength: 1, maxLength: 64, description: 'The client_id.' }),
});

function tierToWire(tier: TierRecord): Static<typeof TierSchema> {
  const { id, name, cost, currency, formattedCostString, leadersMax } = leaderboardToWire(tier, []);
  return { id, name, cost, currency, formattedCostString, leadersMax };
}

function clientToWire(client: GameClientSummary): Static<typeof ClientSchema> {
  return {
    clientId: client.clientId,
    createdAt: client.createdAt.toISOString(),
    revokedAt: client.revokedAt?.toISOString() ?? null,
  };
}

function gameToWire({ game, tiers, clients }: DeveloperGameView): DeveloperGameWire {
  return {
    id: game.id,
    name: game.name,
    description: game.description,
    category: game.category,
    tagLine: game.tagLine,
    developerInfo: game.developerInfo,
    url: game.url,
    coverUrl: game.coverUrl,
    scoreDisplay: game.scoreDisplay,
    prodDomain: game.prodDomain,
    published: game.publishedAt !== null,
    createdAt: game.createdAt.toISOString(),
    leaderboards: tiers.map(tierToWire),
    clients: clients.map(clientToWire),
  };
}

export interface DeveloperGameRoutesOptions {
  /** The signed-in player of a request (throws 401 otherwise). */
  readonly authenticate: (request: FastifyRequest) => Promise<{ playerId: string }>;
  /** Replaces the cover check built from config (tests). */
  readonly checkCover?: CoverCheck | undefined;
}

/**
 * The developer portal's games, tiers, clients and stats (issue 5), for the wallet's developer.
 * Registered inside the /developer plugin, so CORS and the prefix apply.
 */
export function developerGameRoutes(
  app: FastifyInstance,
  options: DeveloperGameRoutesOptions,
): void {
  const portal = new DeveloperPortal(app.arcade, options.checkCover);
  const developer = async (request: FastifyRequest): Promise<DeveloperRecord> =>
    portal.developerOf((await options.authenticate(request)).playerId);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/games',
    {
      schema: {
        tags: TAGS,
        security: Security.playerToken,
        summary: 'List my games',
        description: `The developer’s games, newest first, with live tiers and clients. ${bearer}`,
        response: { 200: DeveloperGameListSchema },
      },
    },
    async (request) => ({
      games: (await portal.listGames(await developer(request))).map(gameToWire),
    }),
  );

  r.get(
    '/games/:gameId',
    {
      schema: {
        tags: TAGS,
        security: Security.playerToken,
        summary: 'One of my games',
        description: `${bearer} ${ownGame}`,
        params: GameParams,
        response: { 200: DeveloperGameSchema },
      },
    },
    async (request) =>
      gameToWire(await portal.getGame(await developer(request), request.params.gameId)),
  );

  r.post(
    '/games',
    {
      bodyLimit: GAME_BODY_LIMIT,
      schema: {
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Register a game',
        description:
          'Registers a game with the default tiers, as POST /game/create does (spec 4.8), with a ' +
          'cover URL or an uploaded cover. Errors: 400 validation_failed (both or neither cover), ' +
          `422 cover_unreachable / cover_not_image / cover_wrong_size. ${bearer}`,
        body: CreateBody,
        response: { 201: DeveloperGameSchema },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const view = await portal.createGame(await developer(request), {
        ...body,
        description: body.description ?? '',
        scoreDisplay: body.scoreDisplay ?? 'NORMAL',
      });
      reply.code(201);
      return gameToWire(view);
    },
  );

  r.patch(
    '/games/:gameId',
    {
      bodyLimit: GAME_BODY_LIMIT,
      schema: {
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Update one of my games',
        description:
          'Changes any mutable field (spec 4.9); a coverUrl replaces an uploaded cover and an ' +
          'upload replaces a cover URL. Errors: 409 field_immutable (name, scoreDisplay), 422 ' +
          `cover_*. ${bearer} ${ownGame}`,
        params: GameParams,
        body: UpdateBody,
        response: { 200: DeveloperGameSchema },
      },
    },
    async (request) =>
      gameToWire(
        await portal.updateGame(await developer(request), request.params.gameId, request.body),
      ),
  );

  r.post(
    '/games/:gameId/leaderboards',
    {
      schema: {
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Add a tier',
        description: `A new leaderboard tier, listed after the others. ${bearer} ${ownGame}`,
        params: GameParams,
        body: AddTierBody,
        response: { 201: TierSchema },
      },
    },
    async (request, reply) => {
      const tier = await portal.addTier(
        await developer(request),
        request.params.gameId,
        request.body,
      );
      reply.code(201);
      return tierToWire(tier);
    },
  );

  r.patch(
    '/games/:gameId/leaderboards/:leaderboardId',
    {
      schema: {
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Rename a tier or change its cost',
        description:
          'A new cost applies to plays opened afterwards; open plays settle at the cost they ' +
          'locked. Errors: 404 leaderboard_not_found, 409 leaderboard_retired. ' +
          `${bearer} ${ownGame}`,
        params: TierParams,
        body: PatchTierBody,
        response: { 200: TierSchema },
      },
    },
    async (request) => {
      const { gameId, leaderboardId } = request.params;
      const tier = await portal.updateTier(
        await developer(request),
        gameId,
        leaderboardId,
        request.body,
      );
      return tierToWire(tier);
    },
  );

  r.delete(
    '/games/:gameId/leaderboards/:leaderboardId',
    {
      schema: {
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Retire a tier',
        description:
          'The tier takes no new plays (409 leaderboard_retired) and leaves the game’s reads and ' +
          'the catalog; its open plays still settle and its leaders stay readable. The last live ' +
          'tier cannot be retired (409 last_live_leaderboard). Retiring again answers the same. ' +
          `Errors: 404 leaderboard_not_found. ${bearer} ${ownGame}`,
        params: TierParams,
        response: { 200: RetiredTierSchema },
      },
    },
    async (request) => {
      const { gameId, leaderboardId } = request.params;
      return portal.retireTier(await developer(request), gameId, leaderboardId);
    },
  );

  r.post(
    '/games/:gameId/clients',
    {
      schema: {
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Create a game server client',
        description:
          'A new client id and secret for POST /oauth/writetoken; the secret is shown only here. ' +
          `${bearer} ${ownGame}`,
        params: GameParams,
        response: { 201: NewClientSchema },
      },
    },
    async (request, reply) => {
      const client = await portal.createClient(await developer(request), request.params.gameId);
      reply.code(201);
      return { ...client, createdAt: client.createdAt.toISOString() };
    },
  );

  r.post(
    '/games/:gameId/clients/:clientId/rotate',
    {
      schema: {
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Rotate a client’s secret',
        description:
          'A new secret for the same client id, shown only here; the old secret fails ' +
          'POST /oauth/writetoken at once (write tokens it already got live until they expire). ' +
          `Errors: 404 client_not_found, 409 client_revoked. ${bearer} ${ownGame}`,
        params: ClientParams,
        response: { 200: NewClientSchema },
      },
    },
    async (request) => {
      const { gameId, clientId } = request.params;
      const client = await portal.rotateClient(await developer(request), gameId, clientId);
      return { ...client, createdAt: client.createdAt.toISOString() };
    },
  );

  r.delete(
    '/games/:gameId/clients/:clientId',
    {
      schema: {
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Revoke a client',
        description:
          'The client’s secret fails POST /oauth/writetoken at once; revoking again keeps the ' +
          `first date. Errors: 404 client_not_found. ${bearer} ${ownGame}`,
        params: ClientParams,
        response: { 200: ClientSchema },
      },
    },
    async (request) => {
      const { gameId, clientId } = request.params;
      return clientToWire(await portal.revokeClient(await developer(request), gameId, clientId));
    },
  );

  r.get(
    '/games/:gameId/stats',
    {
      schema: {
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Plays, scores and HST earned of one of my games',
        description: `${bearer} ${ownGame}`,
        params: GameParams,
        response: { 200: StatsSchema },
      },
    },
    async (request) => {
      const stats = await portal.stats(await developer(request), request.params.gameId);
      return {
        plays: stats.plays,
        scores: stats.scores,
        hstEarned: unitsToHstNumber(stats.earnedUnits),
        recentPlays: stats.recentPlays.map((p) => ({
          playId: p.playId,
          playerName: p.playerName,
          leaderboardName: p.leaderboardName,
          cost: unitsToHstNumber(p.costUnits),
          status: p.status,
          score: p.score,
          createdAt: p.createdAt.toISOString(),
        })),
      };
    },
  );
}
