import { Type, type Static } from '@sinclair/typebox';
import { formatHst } from '@coinop/core';
import type { CatalogGame, CatalogGameList, CatalogTier } from '@coinop/protocol';
import type { ListedGame } from '../../services/catalog-discovery.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { LeaderboardSchema, Uuid } from '../shared/schemas.js';
import { leaderboardToWire } from '../shared/wire.js';
import { Patterns } from '../../listener/string-patterns.js';

/** The catalog's shapes: a listed game, as the catalog and a developer's page answer it. */

const CatalogTierSchema = Type.Pick(LeaderboardSchema, [
  'id',
  'name',
  'cost',
  'currency',
  'formattedCostString',
]);

export const CatalogGameSchema = Type.Object(
  {
    id: Uuid('The game id (gameId).'),
    name: Type.String(),
    tagLine: Type.String({ description: 'One-line pitch; empty when unset.' }),
    category: Type.String({ description: 'Catalog category; empty when unset.' }),
    coverUrl: Type.String({ description: 'Cover image URL (a 1920x1080 image).' }),
    url: Type.String({ description: 'Where the game is hosted; empty until set.' }),
    leaderboards: Type.Array(CatalogTierSchema, { description: 'Tiers, in display order.' }),
    developerId: Uuid("The developer's id: their page is GET /catalog/developers/{developerId}."),
    publishedAt: Type.String({ format: 'date-time', description: 'When the game was listed.' }),
    playsThisWeek: Type.Integer({
      minimum: 0,
      description: 'Plays begun in the last 7 days, free plays included (counted every 30 s).',
    }),
    poolThisWeek: Type.String({
      description: "HST those plays paid into the game's boards, as an exact decimal: its pool.",
    }),
    poolThisWeekUnits: Type.String({
      ...Patterns.digits,
      description: 'The same in base units (1 HST = 10^8), a decimal string.',
    }),
  },
  { description: 'A published game as the catalog lists it.' },
);
type CatalogGameWire = Static<typeof CatalogGameSchema>;
export const CatalogGameListSchema = Type.Object({ games: Type.Array(CatalogGameSchema) });

declare const _catalogTier: SchemaMatches<typeof CatalogTierSchema, CatalogTier>;
declare const _catalogGame: SchemaMatches<typeof CatalogGameSchema, CatalogGame>;
declare const _catalogGameList: SchemaMatches<typeof CatalogGameListSchema, CatalogGameList>;

/** A listed game as the catalog answers it; developer pages list games the same way. */
export function catalogGameToWire(g: ListedGame): CatalogGameWire {
  return {
    id: g.id,
    name: g.name,
    tagLine: g.tagLine,
    category: g.category,
    coverUrl: g.coverUrl,
    url: g.url,
    leaderboards: g.leaderboards.map((b) => {
      const { id, name, cost, currency, formattedCostString } = leaderboardToWire(b, []);
      return { id, name, cost, currency, formattedCostString };
    }),
    developerId: g.developerId,
    publishedAt: g.publishedAt.toISOString(),
    playsThisWeek: g.playsThisWeek,
    poolThisWeek: formatHst(g.poolThisWeekUnits),
    poolThisWeekUnits: g.poolThisWeekUnits.toString(),
  };
}
