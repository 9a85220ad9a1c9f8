import type { Leaderboard } from '@coinop/core';
import type { Queryable } from './db.js';

/** A published game as the catalog lists it, with its tiers in display order. */
export interface CatalogGame {
  id: string;
  name: string;
  tagLine: string;
  category: string;
  coverUrl: string;
  url: string;
  developerId: string;
  publishedAt: Date;
  leaderboards: Leaderboard[];
}

export interface CatalogFilter {
  /** Matched case-insensitively against name, tag line and description. */
  readonly search?: string | undefined;
  /** Matched case-insensitively and exactly. */
  readonly category?: string | undefined;
  /** One developer's games only (their page). */
  readonly developerId?: string | undefined;
}

/** Enough for any catalog page; a larger arcade needs paging first. */
export const CATALOG_MAX_GAMES = 200;

/**
 * The arcade's published games matching the filter, newest first, each with its tiers: one query
 * (games joined to their tiers), so the listing costs the same for one game or two hundred.
 */
export async function listCatalogGames(
  q: Queryable,
  arcadeId: string,
  filter: CatalogFilter = {},
): Promise<CatalogGame[]> {
  const search = filter.search?.trim() ? `%${escapeLike(filter.search.trim())}%` : null;
  const category = filter.category?.trim() ? filter.category.trim() : null;
  const rows = await q.query<{
    id: string;
    name: string;
    tag_line: string;
    category: string;
    cover_url: string;
    url: string;
    developer_id: string;
    published_at: Date;
    lb_id: string | null;
    lb_name: string | null;
    lb_cost_units: bigint | null;
    lb_leaders_max: number | null;
    lb_position: number | null;
  }>(
    `WITH listed AS (
       SELECT id, name, tag_line, category, cover_url, url, developer_id, published_at
       FROM games
       WHERE arcade_id = $1 AND published_at IS NOT NULL
         AND ($2::text IS NULL OR name ILIKE $2 OR tag_line ILIKE $2 OR description ILIKE $2)
         AND ($3::text IS NULL OR lower(category) = lower($3))
         AND ($5::uuid IS NULL OR developer_id = $5)
       ORDER BY published_at DESC, id
       LIMIT $4
     )
     SELECT g.id, g.name, g.tag_line, g.category, g.cover_url, g.url, g.developer_id,
            g.published_at,
            l.id AS lb_id, l.name AS lb_name, l.cost_units AS lb_cost_units,
            l.leaders_max AS lb_leaders_max, l.position AS lb_position
     FROM listed g
     LEFT JOIN leaderboards l
       ON l.game_id = g.id AND l.retired_at IS NULL AND l.tournament_id IS NULL
     ORDER BY g.published_at DESC, g.id, l.position`,
    [arcadeId, search, category, CATALOG_MAX_GAMES, filter.developerId ?? null],
    'catalog_list_games',
  );
  const games = new Map<string, CatalogGame>();
  for (const r of rows) {
    let game = games.get(r.id);
    if (!game) {
      game = {
        id: r.id,
        name: r.name,
        tagLine: r.tag_line,
        category: r.category,
        coverUrl: r.cover_url,
        url: r.url,
        developerId: r.developer_id,
        publishedAt: r.published_at,
        leaderboards: [],
      };
      games.set(r.id, game);
    }
    if (r.lb_id === null) continue;
    game.leaderboards.push({
      id: r.lb_id,
      gameId: r.id,
      name: r.lb_name ?? '',
      costUnits: BigInt(r.lb_cost_units ?? 0n),
      leadersMax: r.lb_leaders_max ?? 0,
      position: r.lb_position ?? 0,
    });
  }
  return [...games.values()];
}

/** A search term taken literally: LIKE's wildcards and escape character escaped. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A developer as their public page names them: the name of the player with their wallet, or
 * null when that wallet never played; null itself when there is no such developer.
 */
export async function findDeveloperName(
  q: Queryable,
  developerId: string,
): Promise<{ name: string | null } | null> {
  const rows = await q.query<{ name: string | null }>(
    `SELECT p.name FROM developers d LEFT JOIN players p ON p.wallet = d.wallet WHERE d.id = $1`,
    [developerId],
    'catalog_developer_name',
  );
  return rows[0] ? { name: rows[0].name } : null;
}
