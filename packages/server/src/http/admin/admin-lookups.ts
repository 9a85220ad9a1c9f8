import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { availableUnits, formatHst, lockedUnits } from '@coinop/core';
import {
  GameStates,
  listDevelopers,
  listGames,
  playerProfile,
  requirePlayer,
  searchPlayers,
  type AdminDeveloperRecord,
  type AdminGameRecord,
} from '../../services/admin.js';
import { AccountReads } from '../../services/account-reads.js';
import type { AdminDeveloper as AdminDeveloperWire, AdminPlayer } from '@coinop/protocol';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { TAGS } from './admin-schemas.js';
import { ExactHst, PlayerRef } from './admin-field-schemas.js';
import {
  ACTIVITY_DESCRIPTION,
  ActivityPageSchema,
  ActivityQuery,
  activityPageOf,
} from '../shared/activity.js';
import { Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

/**
 * The operator's look-ups: every game with where it stands, every developer, one player by id or
 * wallet. Registered inside the admin plugin, so its admin-token hook guards them: only the
 * operator may call them.
 */
/** `limit` and `before` of an admin listing; query values arrive as text. */
export const PageQuery = (what: string) =>
  Type.Object({
    limit: Type.Optional(
      Type.String({
        ...Patterns.from1To100,
        description: `How many ${what}, newest first: 1 to ${ADMIN_PAGE_MAX} (default ${ADMIN_PAGE_DEFAULT})`,
      }),
    ),
    before: Type.Optional(Uuid(`The last of the ${what} of the page before (its \`next\`)`)),
  });
export const ADMIN_PAGE_MAX = 100;
export const ADMIN_PAGE_DEFAULT = 20;

const Next = Type.Union([Uuid('Pass as `before` for the next page'), Type.Null()], {
  description: 'Pass as `before` for the next page; null on the last',
});
const DateTime = (description: string) => Type.String({ format: 'date-time', description });
const NullableDateTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const AdminGame = Type.Object({
  gameId: Uuid('The game'),
  name: Type.String(),
  state: Type.Union(
    GameStates.map((state) => Type.Literal(state)),
    {
      description:
        'published: in the catalog, open to every player; unpublished: off the catalog, only ' +
        'its developer and testers may play; suspended: every new play refused (wins over ' +
        'published)',
    },
  ),
  developerId: Uuid('Its developer'),
  developerWallet: Type.String({ description: "The developer's wallet (lower-case)" }),
  tiers: Type.Integer({ description: 'Live leaderboards (tiers); retired ones not counted' }),
  publishedAt: NullableDateTime('When it was published; null while unpublished'),
  suspendedAt: NullableDateTime('When it was suspended; null unless suspended'),
  createdAt: DateTime('When it was registered'),
  payoutHoldSeconds: Type.Integer({
    description:
      "Seconds its payouts stay pending before they are spendable: the game's own hold, else " +
      "the operator's default (--payout-hold); a tier may set its own",
  }),
});
export const GameList = Type.Object({ games: Type.Array(AdminGame), next: Next });

export const AdminDeveloper = Type.Object({
  developerId: Uuid('The developer'),
  wallet: Type.String({ description: 'Its wallet (lower-case)' }),
  accountId: Uuid('Its ledger account'),
  games: Type.Integer({ description: 'Games it has registered' }),
  balance: ExactHst('What it can withdraw (its earnings)'),
  pending: ExactHst('What its withdrawals not yet paid reserve'),
  createdAt: DateTime('When it was created'),
});
export const DeveloperList = Type.Object({ developers: Type.Array(AdminDeveloper), next: Next });
declare const _developer: SchemaMatches<typeof AdminDeveloper, AdminDeveloperWire>;

export const PlayerRefParams = Type.Object({ player: PlayerRef });
export const PlayerProfile = Type.Object({
  playerId: Uuid('The player'),
  wallet: Type.Union([Type.String(), Type.Null()], {
    description: 'Its wallet (lower-case); null for a player registered without one',
  }),
  name: Type.String({ description: 'Display name' }),
  accountId: Uuid('Its ledger account'),
  balance: ExactHst('What it can spend'),
  pending: ExactHst('What its open plays lock'),
  createdAt: DateTime('When it was created'),
});

declare const _player: SchemaMatches<typeof PlayerProfile, AdminPlayer>;

export const PlayerList = Type.Object({ players: Type.Array(PlayerProfile), next: Next });
const PlayerSearchQuery = Type.Composite([
  PageQuery('players'),
  Type.Object({
    search: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'A player id, a wallet address, or words of the display name (any letter case); ' +
          'every player when absent',
      }),
    ),
  }),
]);

export function adminLookupRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = app.arcade;

  r.get(
    '/admin/players',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        operationId: 'adminSearchPlayers',
        summary: 'Search players by id, wallet or name, with their balances',
        description: 'Newest first; page with `limit` and `before` (the `next` of a page).',
        querystring: PlayerSearchQuery,
        response: { 200: PlayerList },
      },
    },
    async (request) => {
      const search = request.query.search?.trim() ?? '';
      const { players, next } = await searchPlayers(arcade, {
        ...pageOf(request.query),
        search: search === '' ? null : search,
      });
      return {
        players: players.map(({ id, createdAt, ...rest }) => ({
          playerId: id,
          ...rest,
          createdAt: createdAt.toISOString(),
        })),
        next,
      };
    },
  );

  r.get(
    '/admin/games',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        operationId: 'adminListGames',
        summary: 'List every game with its state, developer and tiers',
        description: 'Newest first; page with `limit` and `before` (the `next` of a page).',
        querystring: PageQuery('games'),
        response: { 200: GameList },
      },
    },
    async (request) => {
      const { games, next } = await listGames(arcade, pageOf(request.query));
      const hold = app.config.payoutHoldSeconds;
      return { games: games.map((g) => adminGameToWire(g, hold)), next };
    },
  );
  r.get(
    '/admin/developers',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        operationId: 'adminListDevelopers',
        summary: 'List every developer with its wallet and how many games it has',
        description: 'Newest first; page with `limit` and `before` (the `next` of a page).',
        querystring: Type.Composite([
          PageQuery('developers'),
          Type.Object({
            search: Type.Optional(
              Type.String({
                maxLength: 100,
                description: 'A developer id or wallet address; every developer when absent',
              }),
            ),
          }),
        ]),
        response: { 200: DeveloperList },
      },
    },
    async (request) => {
      const { developers, next } = await listDevelopers(arcade, {
        ...pageOf(request.query),
        search: request.query.search ?? null,
      });
      return { developers: developers.map(adminDeveloperToWire), next };
    },
  );
}

/** One player by id or wallet, and their activity. Registered as the look-ups above. */
export function adminPlayerLookupRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = app.arcade;
  const accounts = new AccountReads(arcade);

  r.get(
    '/admin/players/:player',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        operationId: 'adminGetPlayer',
        summary: 'Look up a player by id or wallet, with its balance',
        params: PlayerRefParams,
        response: { 200: PlayerProfile },
      },
    },
    async (request) => {
      const player = await playerProfile(arcade, request.params.player);
      return { ...player, createdAt: player.createdAt.toISOString() };
    },
  );
  r.get(
    '/admin/players/:player/activity',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        operationId: 'adminListPlayerActivity',
        summary: "A player's activity, newest first, by id or wallet",
        description:
          `${ACTIVITY_DESCRIPTION} The same lines and paging as the player's own ` +
          'GET /player/activity. 404 `player_not_found` when no player has the id or wallet.',
        params: PlayerRefParams,
        querystring: ActivityQuery,
        response: { 200: ActivityPageSchema },
      },
    },
    async (request) => {
      const player = await requirePlayer(arcade, request.params.player);
      return activityPageOf(accounts, player, request.query);
    },
  );
}

function pageOf(query: { limit?: string | undefined; before?: string | undefined }) {
  const limit = Math.min(Number(query.limit ?? ADMIN_PAGE_DEFAULT), ADMIN_PAGE_MAX);
  return { limit, before: query.before };
}

export function adminGameToWire(
  game: AdminGameRecord,
  operatorHoldSeconds: number,
): Static<typeof AdminGame> {
  return {
    gameId: game.id,
    name: game.name,
    state: game.state,
    developerId: game.developerId,
    developerWallet: game.developerWallet,
    tiers: game.tiers,
    publishedAt: game.publishedAt?.toISOString() ?? null,
    suspendedAt: game.suspendedAt?.toISOString() ?? null,
    createdAt: game.createdAt.toISOString(),
    payoutHoldSeconds: game.payoutHoldSeconds ?? operatorHoldSeconds,
  };
}

function adminDeveloperToWire(developer: AdminDeveloperRecord): Static<typeof AdminDeveloper> {
  return {
    developerId: developer.id,
    wallet: developer.wallet,
    accountId: developer.accountId,
    games: developer.games,
    balance: formatHst(availableUnits(developer.account)),
    pending: formatHst(lockedUnits(developer.account)),
    createdAt: developer.createdAt.toISOString(),
  };
}
