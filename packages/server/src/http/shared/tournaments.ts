import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { formatHst, roundStatus } from '@coinop/core';
import type {
  Tournament,
  TournamentEntry,
  TournamentList,
  TournamentRound,
  TournamentRoundDetail,
  TournamentRoundPage,
} from '@coinop/protocol';
import type { ArcadeServices } from '../../services/arcade-services.js';
import {
  Tournaments,
  type PlayerEntry,
  type RoundReaders,
  type TournamentCreator,
  type RoundRecord,
  type RoundResultRecord,
  type TournamentRecord,
  type TournamentRequest,
} from '../../services/tournaments.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { ApiTags, Security } from '../openapi.js';
import { Uuid } from './schemas.js';
import { parseRoundCursor, roundCursor } from './cursors.js';

/** The tournament routes (docs/reference/tournaments.md), one function per audience. */

const ROUNDS_PAGE_MAX = 100;
const ROUNDS_PAGE_DEFAULT = 20;
const RULES = 'The rules: docs/concepts/tournaments.md.';

const PayoutTableSchema = Type.Union(
  [
    Type.Object({ places: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1 }) }),
    Type.Object({ topPercent: Type.Integer({ minimum: 1, maximum: 100 }) }),
  ],
  {
    description:
      'Basis points for places 1, 2, 3… summing to 10,000, or an equal share for the top ' +
      '`topPercent` of the ranked players.',
  },
);

const RoundSchema = Type.Object({
  id: Uuid("The round; also its board's leaderboardId and its pool account's id."),
  number: Type.Integer({ minimum: 1 }),
  boardName: Type.String({
    description: "The round's board name: the `Tier:` line of a signed play's approval.",
  }),
  startsAt: Type.String({ format: 'date-time' }),
  endsAt: Type.String({ format: 'date-time' }),
  status: Type.Union([Type.Literal('scheduled'), Type.Literal('open'), Type.Literal('closed')], {
    description: 'By time and by the close: scheduled before startsAt, closed from endsAt.',
  }),
  closedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the close ran (standings frozen, pool paid); null until then.',
  }),
  entrants: Type.Integer({ minimum: 0 }),
  pool: Type.String({
    description: 'HST in the pool while the round is not closed; what was paid out once closed.',
  }),
  guaranteeFunded: Type.Boolean({
    description: 'False when the creator could not cover the guarantee as the round opened.',
  }),
});
const ResultSchema = Type.Object({
  place: Type.Integer({ minimum: 1 }),
  playerId: Uuid('The player.'),
  name: Type.String(),
  avatar: Type.String({ description: 'Avatar image URL.' }),
  score: Type.Number(),
  prize: Type.String({ description: 'HST paid to the place.' }),
});
const RoundDetailSchema = Type.Intersect([
  RoundSchema,
  Type.Object({
    results: Type.Array(ResultSchema, {
      description: 'The paid places, from 1; empty until the close.',
    }),
  }),
]);
const TournamentSchema = Type.Object({
  id: Uuid('The tournament; as a play’s leaderboardId it means its round open now.'),
  gameId: Uuid('The game.'),
  gameName: Type.String(),
  name: Type.String(),
  entryFee: Type.String({ description: 'HST a play locks.' }),
  guaranteedPool: Type.String({ description: 'HST put into each round’s pool as it opens.' }),
  payoutTable: PayoutTableSchema,
  maxEntrants: Type.Union([Type.Integer(), Type.Null()]),
  maxAttempts: Type.Union([Type.Integer(), Type.Null()]),
  recurrence: Type.Union([Type.String(), Type.Null()], {
    description: 'Cron of the rounds’ starts (UTC); null for a single round.',
  }),
  durationSeconds: Type.Integer(),
  startsAt: Type.String({ format: 'date-time', description: 'When the first round opens.' }),
  stoppedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Set when stopped: no round after the current one.',
  }),
  createdBy: Type.Union([Type.Literal('developer'), Type.Literal('operator')], {
    description: 'Who created it, and so funds each round’s guarantee.',
  }),
  scoreDisplay: Type.Union([Type.Literal('NORMAL'), Type.Literal('REVERSE')]),
  scoreUnit: Type.String(),
  currentRound: Type.Union([RoundSchema, Type.Null()], {
    description:
      'The latest round not yet closed (open now or scheduled); between its end and its close ' +
      'it shows `status: closed`. Null once no round is to come.',
  }),
});
const EntrySchema = Type.Object({
  tournamentId: Uuid('The tournament.'),
  roundId: Uuid('The round answered for: `roundId` when given, else the current round.'),
  entered: Type.Boolean({ description: 'True once the player has opened a play on the round.' }),
  attempts: Type.Integer({
    minimum: 0,
    description: 'Plays the player has opened on the round, scored or not.',
  }),
  maxAttempts: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: 'Plays a player may open per round; null for no limit.',
  }),
  attemptsLeft: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: 'maxAttempts − attempts; null for no limit.',
  }),
  rank: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: "The player's exact rank on the round's board; null until they score.",
  }),
  score: Type.Union([Type.Number(), Type.Null()], {
    description: "The player's best score on the round; null until they score.",
  }),
});
const TournamentListSchema = Type.Object({ tournaments: Type.Array(TournamentSchema) });
const RoundPageSchema = Type.Object({
  rounds: Type.Array(RoundSchema, { description: 'Newest first.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last page.',
  }),
});

declare const _round: SchemaMatches<typeof RoundSchema, TournamentRound>;
declare const _roundDetail: SchemaMatches<typeof RoundDetailSchema, TournamentRoundDetail>;
declare const _tournament: SchemaMatches<typeof TournamentSchema, Tournament>;
declare const _list: SchemaMatches<typeof TournamentListSchema, TournamentList>;
declare const _page: SchemaMatches<typeof RoundPageSchema, TournamentRoundPage>;
declare const _entry: SchemaMatches<typeof EntrySchema, TournamentEntry>;

const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    entryFee: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'HST a play costs, as an exact decimal ("2", "0.5", "0").',
    }),
    guaranteedPool: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description: 'HST put into each round’s pool by the creator as it opens (default "0").',
      }),
    ),
    payoutTable: Type.Unsafe<unknown>({
      type: 'object',
      description:
        '`{ "places": [basis points…] }` (1 to 100 places, each ≥ 1, summing to 10,000) or ' +
        '`{ "topPercent": q }` (1 to 100).',
    }),
    startsAt: Type.String({
      format: 'date-time',
      description: 'When the first round opens; from a minute ago to 366 days ahead.',
    }),
    endsAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'Exactly one of endsAt, durationSeconds.' }),
    ),
    durationSeconds: Type.Optional(
      Type.Integer({ minimum: 1, description: 'A round’s length: 60 s to 366 days.' }),
    ),
    recurrence: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()], {
        description: 'Five-field cron of the rounds’ starts, UTC (`0 0 * * 1`: Mondays).',
      }),
    ),
    maxEntrants: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 10_000_000 }), Type.Null()]),
    ),
    maxAttempts: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 10_000 }), Type.Null()]),
    ),
  },
  { additionalProperties: false },
);
type CreateBodyWire = Static<typeof CreateBody>;

const GameParams = Type.Object({ gameId: Uuid('The game.') });
const TournamentParams = Type.Object({ tournamentId: Uuid('The tournament.') });
const GameTournamentParams = Type.Object({
  gameId: Uuid('The game.'),
  tournamentId: Uuid('The tournament.'),
});
const RoundParams = Type.Object({
  tournamentId: Uuid('The tournament.'),
  roundId: Uuid('The round.'),
});
const EntryQuery = Type.Object({
  roundId: Type.Optional(Uuid('A round of the tournament; by default the current round.')),
});
const ArcadeGameParams = Type.Object({ arcadeId: Uuid('The arcade.'), gameId: Uuid('The game.') });
const RoundsQuery = Type.Object({
  limit: Type.Optional(
    Type.String({
      pattern: '^(100|[1-9][0-9]?)$',
      description: `rounds per page, 1 to ${ROUNDS_PAGE_MAX} (default ${ROUNDS_PAGE_DEFAULT})`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: "the previous page's nextCursor" }),
  ),
});

const CREATE_DESCRIPTION =
  'Creates the tournament and opens its first round in one transaction; the guarantee is moved ' +
  'from the creator’s account into the round’s pool. 400 validation_failed naming the field ' +
  '(payoutTable, recurrence, startsAt, endsAt/durationSeconds, entryFee, guaranteedPool); 402 ' +
  `insufficient_funds when the guarantee cannot be covered (nothing is written). ${RULES}`;

/** The wire shapes; a round's status is by the arcade's clock. */
function wireOf(arcade: ArcadeServices) {
  const round = (r: RoundRecord): Static<typeof RoundSchema> => ({
    id: r.id,
    number: r.number,
    boardName: r.boardName,
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
    status: roundStatus(r, r.isClosed, arcade.clock.now()),
    closedAt: r.closedAt?.toISOString() ?? null,
    entrants: r.entrants,
    pool: formatHst(r.poolUnits),
    guaranteeFunded: r.guaranteeFunded,
  });
  const tournament = (t: TournamentRecord): Static<typeof TournamentSchema> => ({
    id: t.id,
    gameId: t.gameId,
    gameName: t.gameName,
    name: t.name,
    entryFee: formatHst(t.entryFeeUnits),
    guaranteedPool: formatHst(t.guaranteeUnits),
    payoutTable:
      'places' in t.payoutTable
        ? { places: [...t.payoutTable.places] }
        : { topPercent: t.payoutTable.topPercent },
    maxEntrants: t.maxEntrants,
    maxAttempts: t.maxAttempts,
    recurrence: t.recurrence,
    durationSeconds: t.durationSeconds,
    startsAt: t.startsAt.toISOString(),
    stoppedAt: t.stoppedAt?.toISOString() ?? null,
    createdBy: t.createdBy,
    scoreDisplay: t.scoreDisplay,
    scoreUnit: t.scoreUnit,
    currentRound: t.currentRound === null ? null : round(t.currentRound),
  });
  const result = (r: RoundResultRecord) => ({
    place: r.place,
    playerId: r.playerId,
    name: r.name,
    avatar: arcade.avatars.urlOf(r.playerId, r.avatarUrl),
    score: r.score,
    prize: formatHst(r.prizeUnits),
  });
  const entry = (e: PlayerEntry): Static<typeof EntrySchema> => ({
    tournamentId: e.tournamentId,
    roundId: e.roundId,
    entered: e.attempts > 0,
    attempts: e.attempts,
    maxAttempts: e.maxAttempts,
    attemptsLeft: e.maxAttempts === null ? null : Math.max(0, e.maxAttempts - e.attempts),
    rank: e.rank,
    score: e.score,
  });
  return { round, tournament, result, entry };
}

/**
 * The two round reads, the same for the catalog (published games) and the operator (any game):
 * a page of rounds, and one round with its paid places.
 */
function roundReads(service: Tournaments, wire: ReturnType<typeof wireOf>, readers: RoundReaders) {
  return {
    page: async (
      tournamentId: string,
      query: Static<typeof RoundsQuery>,
    ): Promise<Static<typeof RoundPageSchema>> => {
      const before = query.cursor === undefined ? null : parseRoundCursor(query.cursor);
      const limit = Number(query.limit ?? ROUNDS_PAGE_DEFAULT);
      const page = await service.rounds(tournamentId, before, limit, readers);
      const last = page.rounds.at(-1);
      return {
        rounds: page.rounds.map(wire.round),
        nextCursor: page.more && last ? roundCursor(last.number) : null,
      };
    },
    one: async (
      tournamentId: string,
      roundId: string,
    ): Promise<Static<typeof RoundDetailSchema>> => {
      const { round, results } = await service.round(tournamentId, roundId, readers);
      return { ...wire.round(round), results: results.map(wire.result) };
    },
  };
}

const toRequest = (body: CreateBodyWire): TournamentRequest => ({
  name: body.name,
  entryFee: body.entryFee,
  guaranteedPool: body.guaranteedPool,
  payoutTable: body.payoutTable,
  startsAt: body.startsAt,
  endsAt: body.endsAt,
  durationSeconds: body.durationSeconds,
  recurrence: body.recurrence,
  maxEntrants: body.maxEntrants,
  maxAttempts: body.maxAttempts,
});

/**
 * The developer's tournaments of their own games (another developer's game answers 404
 * game_not_found, as the portal's other routes do). Registered in the /developer plugin.
 */
export function developerTournamentRoutes(
  instance: FastifyInstance,
  options: {
    /** The developer of the request: the portal's session or the developer's API key. */
    readonly developerOf: (request: FastifyRequest) => Promise<TournamentCreator>;
    readonly security: readonly Record<string, readonly string[]>[];
    readonly tags: readonly string[];
    readonly who: string;
  },
): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const service = new Tournaments(app.arcade);
  const wire = wireOf(app.arcade);
  const common = {
    tags: [...options.tags],
    security: options.security.map((s) => ({ ...s })),
  };
  const developer = async (request: FastifyRequest) => {
    const creator = await options.developerOf(request);
    if (creator.kind !== 'developer') throw new TypeError('a developer route named the operator');
    return creator;
  };

  app.post(
    '/games/:gameId/tournaments',
    {
      schema: {
        ...common,
        operationId: 'developerCreateTournament',
        summary: 'Create a tournament of my game',
        description: `${CREATE_DESCRIPTION} ${options.who}`,
        params: GameParams,
        body: CreateBody,
        response: { 201: TournamentSchema },
      },
    },
    async (request, reply) => {
      const created = await service.create(
        await developer(request),
        request.params.gameId,
        toRequest(request.body),
      );
      reply.code(201);
      return wire.tournament(created);
    },
  );

  app.get(
    '/games/:gameId/tournaments',
    {
      schema: {
        ...common,
        operationId: 'developerListTournaments',
        summary: 'My game’s tournaments, newest first',
        description: options.who,
        params: GameParams,
        response: { 200: TournamentListSchema },
      },
    },
    async (request) => ({
      tournaments: (await service.ofGame(await developer(request), request.params.gameId)).map(
        wire.tournament,
      ),
    }),
  );

  app.get(
    '/games/:gameId/tournaments/:tournamentId',
    {
      schema: {
        ...common,
        operationId: 'developerGetTournament',
        summary: 'One tournament of my game',
        description: `${options.who} 404 tournament_not_found.`,
        params: GameTournamentParams,
        response: { 200: TournamentSchema },
      },
    },
    async (request) => {
      const { developer: who } = await developer(request);
      const { gameId, tournamentId } = request.params;
      return wire.tournament(await service.ofDeveloper(who, gameId, tournamentId));
    },
  );

  app.post(
    '/games/:gameId/tournaments/:tournamentId/stop',
    {
      schema: {
        ...common,
        operationId: 'developerStopTournament',
        summary: 'Stop a tournament: no round after the current one',
        description:
          'The current round runs to its end and is closed and paid as usual; no round opens ' +
          `after it. Stopping again keeps the first time. ${options.who}`,
        params: GameTournamentParams,
        response: { 200: TournamentSchema },
      },
    },
    async (request) => {
      const { developer: who } = await developer(request);
      const { gameId, tournamentId } = request.params;
      await service.ofDeveloper(who, gameId, tournamentId);
      return wire.tournament(await service.stop(tournamentId, gameId));
    },
  );
}

/** The operator's tournaments, of any game. Registered in the admin plugin (admin token). */
export function adminTournamentRoutes(instance: FastifyInstance, tags: readonly string[]): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const service = new Tournaments(app.arcade);
  const wire = wireOf(app.arcade);
  const rounds = roundReads(service, wire, { publishedOnly: false });
  const common = { tags: [...tags], security: Security.adminToken.map((s) => ({ ...s })) };

  app.post(
    '/admin/tournaments',
    {
      schema: {
        ...common,
        operationId: 'adminCreateTournament',
        summary: 'Create a tournament of any game, funded by the arcade',
        description: `The guarantee comes from the arcade’s account. ${CREATE_DESCRIPTION}`,
        body: Type.Composite([Type.Object({ gameId: Uuid('The game.') }), CreateBody], {
          additionalProperties: false,
        }),
        response: { 201: TournamentSchema },
      },
    },
    async (request, reply) => {
      const { gameId, ...body } = request.body;
      const created = await service.create({ kind: 'operator' }, gameId, toRequest(body));
      reply.code(201);
      return wire.tournament(created);
    },
  );

  app.get(
    '/admin/tournaments',
    {
      schema: {
        ...common,
        operationId: 'adminListTournaments',
        summary: 'Every tournament, those with a round to come first',
        description: 'Of published and unpublished games alike; at most 200.',
        response: { 200: TournamentListSchema },
      },
    },
    async () => ({ tournaments: (await service.all()).map(wire.tournament) }),
  );

  app.post(
    '/admin/tournaments/:tournamentId/stop',
    {
      schema: {
        ...common,
        operationId: 'adminStopTournament',
        summary: 'Stop a tournament: no round after the current one',
        description: 'The current round closes and pays as usual. 404 tournament_not_found.',
        params: TournamentParams,
        response: { 200: TournamentSchema },
      },
    },
    async (request) => wire.tournament(await service.stop(request.params.tournamentId, null)),
  );

  app.get(
    '/admin/tournaments/:tournamentId/rounds',
    {
      schema: {
        ...common,
        operationId: 'adminListTournamentRounds',
        summary: 'A tournament’s rounds, newest first, cursor paged, of any game',
        description:
          'As GET /catalog/tournaments/{tournamentId}/rounds, for published and unpublished games ' +
          'alike. 404 tournament_not_found; 400 validation_failed naming `cursor` or `limit`.',
        params: TournamentParams,
        querystring: RoundsQuery,
        response: { 200: RoundPageSchema },
      },
    },
    async (request) => rounds.page(request.params.tournamentId, request.query),
  );

  app.get(
    '/admin/tournaments/:tournamentId/rounds/:roundId',
    {
      schema: {
        ...common,
        operationId: 'adminGetTournamentRound',
        summary: 'One round with its paid places, of any game',
        description:
          'As GET /catalog/tournaments/{tournamentId}/rounds/{roundId}, for published and ' +
          'unpublished games alike. 404 tournament_not_found, tournament_round_not_found.',
        params: RoundParams,
        response: { 200: RoundDetailSchema },
      },
    },
    async (request) => rounds.one(request.params.tournamentId, request.params.roundId),
  );
}

/** The public reads: tournaments of published games. Registered in the catalog plugin. */
export function catalogTournamentRoutes(instance: FastifyInstance): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const service = new Tournaments(app.arcade);
  const wire = wireOf(app.arcade);
  const rounds = roundReads(service, wire, { publishedOnly: true });
  const common = { tags: [ApiTags.catalog], security: [...Security.none] };

  app.get(
    '/catalog/tournaments',
    {
      schema: {
        ...common,
        operationId: 'listCatalogTournaments',
        summary: 'Tournaments of published games: open and upcoming first',
        description:
          'Those with a round not yet closed first, the soonest to end first; then the others, ' +
          `newest first; at most 200. ${RULES}`,
        response: { 200: TournamentListSchema },
      },
    },
    async () => ({ tournaments: (await service.catalog(null)).map(wire.tournament) }),
  );

  app.get(
    '/catalog/games/:gameId/tournaments',
    {
      schema: {
        ...common,
        operationId: 'listCatalogGameTournaments',
        summary: 'A published game’s tournaments, newest first',
        params: GameParams,
        response: { 200: TournamentListSchema },
      },
    },
    async (request) => ({
      tournaments: (await service.catalog(request.params.gameId)).map(wire.tournament),
    }),
  );

  app.get(
    '/catalog/tournaments/:tournamentId',
    {
      schema: {
        ...common,
        operationId: 'getCatalogTournament',
        summary: 'A tournament of a published game',
        description: '404 tournament_not_found (also for an unpublished game’s).',
        params: TournamentParams,
        response: { 200: TournamentSchema },
      },
    },
    async (request) => wire.tournament(await service.published(request.params.tournamentId)),
  );

  app.get(
    '/catalog/tournaments/:tournamentId/rounds',
    {
      schema: {
        ...common,
        operationId: 'listCatalogTournamentRounds',
        summary: 'A tournament’s rounds, newest first, cursor paged',
        description:
          'Every round, the current one included. 400 validation_failed naming `cursor` or ' +
          '`limit` when one is not valid.',
        params: TournamentParams,
        querystring: RoundsQuery,
        response: { 200: RoundPageSchema },
      },
    },
    async (request) => rounds.page(request.params.tournamentId, request.query),
  );

  app.get(
    '/catalog/tournaments/:tournamentId/rounds/:roundId',
    {
      schema: {
        ...common,
        operationId: 'getCatalogTournamentRound',
        summary: 'One round with its paid places',
        description:
          'The full standings are the round’s board: GET /catalog/games/{gameId}/boards/{roundId}. ' +
          '404 tournament_not_found, tournament_round_not_found.',
        params: RoundParams,
        response: { 200: RoundDetailSchema },
      },
    },
    async (request) => rounds.one(request.params.tournamentId, request.params.roundId),
  );
}

/** The game server's view of its game's tournaments (write token). */
export function gameServerTournamentRoutes(instance: FastifyInstance): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const service = new Tournaments(app.arcade);
  const wire = wireOf(app.arcade);

  app.get(
    '/arcades/:arcadeId/games/:gameId/tournaments',
    {
      schema: {
        operationId: 'listGameTournaments',
        tags: [ApiTags.gameServer],
        security: Security.writeToken.map((s) => ({ ...s })),
        summary: 'The game’s tournaments, newest first',
        description:
          'A play names a round by its id (`currentRound.id`) or by the tournament’s id (its ' +
          `round open now) as the leaderboardId. ${RULES}`,
        params: ArcadeGameParams,
        response: { 200: TournamentListSchema },
      },
    },
    async (request) => ({
      tournaments: (await service.ofGame(null, request.params.gameId)).map(wire.tournament),
    }),
  );

  app.get(
    '/arcades/:arcadeId/games/:gameId/tournaments/:tournamentId/players/:playerId/entry',
    {
      schema: {
        operationId: 'getGameTournamentEntry',
        tags: [ApiTags.gameServer],
        security: Security.writeToken.map((s) => ({ ...s })),
        summary: 'A player’s entry in a round: attempts used and left, rank and best',
        description:
          'The answer of GET /player/tournaments/{tournamentId}/entry, for any player, on a ' +
          'tournament of this game (published or not). A player who never opened a play on the ' +
          'round, or an id nobody has, reads as not entered. 404 `tournament_not_found` (also ' +
          'for another game’s), `tournament_round_not_found`; 400 validation_failed naming the ' +
          `id that is not a UUID. ${RULES}`,
        params: Type.Object({
          arcadeId: Uuid('The arcade.'),
          gameId: Uuid('The game.'),
          tournamentId: Uuid('The tournament.'),
          playerId: Uuid('The player.'),
        }),
        querystring: EntryQuery,
        response: { 200: EntrySchema },
      },
    },
    async (request) => {
      const { gameId, tournamentId, playerId } = request.params;
      const roundId = request.query.roundId ?? null;
      return wire.entry(await service.entryInGame(gameId, tournamentId, roundId, playerId));
    },
  );
}

/**
 * The signed-in player's own entry in a round (player token, as the other /player routes).
 * Registered in the player plugin, under /player.
 */
export function playerTournamentRoutes(
  instance: FastifyInstance,
  authenticate: (request: FastifyRequest) => Promise<{ playerId: string }>,
): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const service = new Tournaments(app.arcade);
  const wire = wireOf(app.arcade);

  app.get(
    '/tournaments/:tournamentId/entry',
    {
      schema: {
        operationId: 'playerGetTournamentEntry',
        tags: [ApiTags.player],
        security: Security.playerToken.map((s) => ({ ...s })),
        summary: 'My entry in a tournament round: attempts used and left, rank and best',
        description:
          'The round is `roundId` when given, else the current round (the latest not yet ' +
          'closed), else the latest round. `entered` is false and `attempts` 0 until the player ' +
          'opens a play on it; `rank` and `score` are null until they score. 404 ' +
          '`tournament_not_found` (also for an unpublished game’s), `tournament_round_not_found`; ' +
          `400 validation_failed naming \`roundId\`. ${RULES}`,
        params: TournamentParams,
        querystring: EntryQuery,
        response: { 200: EntrySchema },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      const { tournamentId } = request.params;
      return wire.entry(
        await service.entryOf(tournamentId, request.query.roundId ?? null, playerId),
      );
    },
  );
}
