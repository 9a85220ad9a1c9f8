import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TObject, type TProperties } from '@sinclair/typebox';
import type { BoardAround, BoardEntry, BoardPage } from '@coinop/protocol';
import type { GameReads, RankedBest } from '../../services/game-reads.js';
import { boardCursor, parseBoardCursor } from './cursors.js';
import { Uuid } from './schemas.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Patterns } from '../../listener/string-patterns.js';

/** The largest page of a board, and the most players around one. */
export const BOARD_PAGE_MAX = 100;
export const BOARD_AROUND_MAX = 50;

const BoardEntrySchema = Type.Object({
  rank: Type.Integer({ minimum: 1, description: 'Exact, 1-based; no two players share one.' }),
  playerId: Uuid('The player.'),
  name: Type.String(),
  avatar: Type.String({ description: 'Avatar image URL.' }),
  score: Type.Number({ description: "The player's best score on the tier." }),
});
const BoardPageSchema = Type.Object({
  leaderboardId: Uuid('The tier.'),
  players: Type.Integer({
    description: 'Players with a score on the tier when the page was read.',
  }),
  entries: Type.Array(BoardEntrySchema, { description: 'Best first.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last page.',
  }),
});
const BoardAroundSchema = Type.Object({
  leaderboardId: Uuid('The tier.'),
  players: Type.Integer({ description: 'Players with a score on the tier.' }),
  above: Type.Array(BoardEntrySchema, {
    description: 'Up to `count` players just above, best first.',
  }),
  player: Type.Union([BoardEntrySchema, Type.Null()], {
    description: 'The player; null when they have no score on the tier (the lists are then empty).',
  }),
  below: Type.Array(BoardEntrySchema, {
    description: 'Up to `count` players just below, best first.',
  }),
});

declare const _boardEntry: SchemaMatches<typeof BoardEntrySchema, BoardEntry>;
declare const _boardPage: SchemaMatches<typeof BoardPageSchema, BoardPage>;
declare const _boardAround: SchemaMatches<typeof BoardAroundSchema, BoardAround>;

// Query values arrive as text, and the API never coerces types.
const PageQuery = Type.Object({
  limit: Type.Optional(
    Type.String({
      ...Patterns.from1To100,
      description: `rows per page, 1 to ${BOARD_PAGE_MAX} (default 25)`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: "the previous page's nextCursor" }),
  ),
});
const AroundQuery = Type.Object({
  count: Type.Optional(
    Type.String({
      ...Patterns.from0To50,
      description: `players to show above and below, 0 to ${BOARD_AROUND_MAX} (default 5)`,
    }),
  ),
});

const PAGE_DESCRIPTION =
  'Exact ranks, best first; equal scores share no rank (the earlier score ranks higher, then the ' +
  'player id). A walk (the first page and the pages its cursors lead to) is the board as it was ' +
  'at its first page: every player on the board then is on exactly one page, at their place ' +
  'then, whatever scores arrive meanwhile; each row shows the best and exact rank the player has ' +
  "at that page's read (one snapshot), so a player who climbed since shows a better rank at " +
  'their old place. Players who joined after the first page are left to a fresh walk ' +
  '(docs/reference/boards-and-history.md). 400 `validation_failed` naming `cursor` or `limit` ' +
  'when one is not valid; 410 `cursor_expired` for a walk begun over ten minutes ago.';
const AROUND_DESCRIPTION =
  "A player's exact rank with the `count` players just above and below, in one snapshot. " +
  '`player` is null (the lists empty) when the player has no score on the tier; 404 ' +
  '`player_not_found` when there is no such player.';

export interface BoardRoutesOptions<Params extends TProperties> {
  /** Where the tier is: a path ending in `:gameId/.../:leaderboardId`. */
  readonly path: string;
  readonly params: TObject<Params>;
  readonly tags: string[];
  readonly security: readonly Record<string, readonly string[]>[];
  /** operationIds: the page and the around-a-player read. */
  readonly operationIds: { readonly page: string; readonly around: string };
  readonly who: string;
  /** Refuses a request that may not read this game's boards (throws). */
  readonly allow: (request: FastifyRequest, gameId: string) => Promise<void>;
  readonly reads: GameReads;
}

/** The board reads, mounted for the public catalog and for game servers alike. */
export function boardRoutes<Params extends TProperties>(
  instance: FastifyInstance,
  options: BoardRoutesOptions<Params>,
): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { reads } = options;
  const entry = (best: RankedBest): BoardEntry => ({
    rank: best.rank,
    playerId: best.playerId,
    name: best.name,
    avatar: reads.avatarOf(best),
    score: best.score,
  });
  const security = options.security.map((s) =>
    Object.fromEntries(Object.entries(s).map(([k, v]) => [k, [...v]])),
  );
  const ids = (params: unknown) => params as { gameId: string; leaderboardId: string };

  app.get(
    options.path,
    {
      schema: {
        operationId: options.operationIds.page,
        tags: options.tags,
        summary: "A page of a tier's board, with exact ranks",
        description: `${options.who} ${PAGE_DESCRIPTION}`,
        security,
        params: options.params,
        querystring: PageQuery,
        response: { 200: BoardPageSchema },
      },
    },
    async (request) => {
      const { gameId, leaderboardId } = ids(request.params);
      await options.allow(request, gameId);
      const { limit, cursor } = request.query;
      const after = cursor === undefined ? null : parseBoardCursor(cursor);
      const page = await reads.boardPage(gameId, leaderboardId, after, Number(limit ?? 25));
      const last = page.rows.at(-1);
      return {
        leaderboardId,
        players: page.players,
        entries: page.rows.map(entry),
        nextCursor:
          page.more && last
            ? boardCursor({ s0: page.s0, startedAtMs: page.startedAtMs, position: last.position })
            : null,
      };
    },
  );

  app.get(
    `${options.path}/players/:playerId`,
    {
      schema: {
        operationId: options.operationIds.around,
        tags: options.tags,
        summary: "A player's rank on a tier and the players around them",
        description: `${options.who} ${AROUND_DESCRIPTION}`,
        security,
        params: Type.Composite([options.params, Type.Object({ playerId: Uuid('the player') })]),
        querystring: AroundQuery,
        response: { 200: BoardAroundSchema },
      },
    },
    async (request) => {
      const { gameId, leaderboardId, playerId } = request.params as {
        gameId: string;
        leaderboardId: string;
        playerId: string;
      };
      await options.allow(request, gameId);
      const around = await reads.boardAround(
        gameId,
        leaderboardId,
        playerId,
        Number(request.query.count ?? 5),
      );
      return {
        leaderboardId,
        players: around.players,
        above: around.above.map(entry),
        player: around.player === null ? null : entry(around.player),
        below: around.below.map(entry),
      };
    },
  );
}
