import { Type, type Static } from '@sinclair/typebox';
import type {
  Tournament,
  TournamentEntry,
  TournamentList,
  TournamentRound,
  TournamentRoundDetail,
  TournamentRoundPage,
} from '@coinop/protocol';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Uuid } from './schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

/**
 * The wire shapes of the tournament routes (docs/reference/tournaments.md), which five audiences
 * mount: the developer, the operator, the catalog, the game server and the player.
 */

export const ROUNDS_PAGE_MAX = 100;
export const ROUNDS_PAGE_DEFAULT = 20;
export const RULES = 'The rules: docs/concepts/tournaments.md.';

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

export const RoundSchema = Type.Object({
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
export const RoundDetailSchema = Type.Intersect([
  RoundSchema,
  Type.Object({
    results: Type.Array(ResultSchema, {
      description: 'The paid places, from 1; empty until the close.',
    }),
  }),
]);
export const TournamentSchema = Type.Object({
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
export const EntrySchema = Type.Object({
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
export const TournamentListSchema = Type.Object({ tournaments: Type.Array(TournamentSchema) });
export const RoundPageSchema = Type.Object({
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

export const CreateBody = Type.Object(
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
export type CreateBodyWire = Static<typeof CreateBody>;

export const GameParams = Type.Object({ gameId: Uuid('The game.') });
export const TournamentParams = Type.Object({ tournamentId: Uuid('The tournament.') });
export const GameTournamentParams = Type.Object({
  gameId: Uuid('The game.'),
  tournamentId: Uuid('The tournament.'),
});
export const RoundParams = Type.Object({
  tournamentId: Uuid('The tournament.'),
  roundId: Uuid('The round.'),
});
export const EntryQuery = Type.Object({
  roundId: Type.Optional(Uuid('A round of the tournament; by default the current round.')),
});
export const ArcadeGameParams = Type.Object({
  arcadeId: Uuid('The arcade.'),
  gameId: Uuid('The game.'),
});
export const RoundsQuery = Type.Object({
  limit: Type.Optional(
    Type.String({
      ...Patterns.from1To100,
      description: `rounds per page, 1 to ${ROUNDS_PAGE_MAX} (default ${ROUNDS_PAGE_DEFAULT})`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: "the previous page's nextCursor" }),
  ),
});

export const CREATE_DESCRIPTION =
  'Creates the tournament and opens its first round in one transaction; the guarantee is moved ' +
  'from the creator’s account into the round’s pool. 400 validation_failed naming the field ' +
  '(payoutTable, recurrence, startsAt, endsAt/durationSeconds, entryFee, guaranteedPool); 402 ' +
  `insufficient_funds when the guarantee cannot be covered (nothing is written). ${RULES}`;
