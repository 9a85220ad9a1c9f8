import { CoinopError, type Account, type AccountKind } from '@coinop/core';
import { toAccount, type AccountRow } from './ledger.js';
import type { Queryable } from './db.js';
import { normalizeWallet } from './players.js';

/** Storage the operator side needs: id resolution, demo look-ups. */

/** A wallet address as operators type it: 0x and 40 hex digits, in any case. */
export const WALLET_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The ledger account an operator means by `ref`: the account itself, or the account of the
 * player, developer or arcade with that id, or of the player or developer of that wallet
 * (`0x…`). Null when nothing has that id or wallet. Throws `account_ambiguous` when a wallet has
 * both a player and a developer: the operator must say which by id.
 */
export async function resolveAccount(
  q: Queryable,
  ref: string,
): Promise<{ accountId: string; kind: AccountKind } | null> {
  if (WALLET_ADDRESS.test(ref)) return resolveWalletAccount(q, ref);
  const rows = await q.query<{ id: string; kind: AccountKind }>(
    `SELECT a.id, a.kind FROM accounts a
     WHERE a.id = $1
        OR a.id = (SELECT account_id FROM players WHERE id = $1)
        OR a.id = (SELECT account_id FROM developers WHERE id = $1)
        OR a.id = (SELECT account_id FROM arcades WHERE id = $1)
     LIMIT 1`,
    [ref],
  );
  const row = rows[0];
  return row ? { accountId: row.id, kind: row.kind } : null;
}

async function resolveWalletAccount(
  q: Queryable,
  wallet: string,
): Promise<{ accountId: string; kind: AccountKind } | null> {
  const normalized = normalizeWallet(wallet);
  const rows = await q.query<{ owner: 'player' | 'developer'; id: string; account_id: string }>(
    `SELECT 'player' AS owner, id, account_id FROM players WHERE wallet = $1
     UNION ALL
     SELECT 'developer' AS owner, id, account_id FROM developers WHERE wallet = $1
     ORDER BY owner DESC`,
    [normalized],
  );
  const [first, second] = rows;
  if (!first) return null;
  if (second) {
    const ids = Object.fromEntries(rows.map((r) => [`${r.owner}Id`, r.id]));
    throw new CoinopError(
      'account_ambiguous',
      `wallet ${normalized} is both player ${ids['playerId']} and developer ` +
        `${ids['developerId']}: give the id of the one you mean`,
      { details: { wallet: normalized, ...ids } },
    );
  }
  return { accountId: first.account_id, kind: first.owner };
}

/** A game as the operator lists it: where it stands, whose it is, how many live tiers it has. */
export interface AdminGameRecord {
  readonly id: string;
  readonly name: string;
  readonly state: GameState;
  readonly developerId: string;
  readonly developerWallet: string;
  /** Live leaderboards (tiers): retired ones are not counted. */
  readonly tiers: number;
  readonly publishedAt: Date | null;
  readonly suspendedAt: Date | null;
  readonly createdAt: Date;
  /** The game's own payout hold in seconds; null: the operator's default. */
  readonly payoutHoldSeconds: number | null;
}

/**
 * Where a game stands for players: `suspended` (the operator refuses every play), `published`
 * (in the catalog, open to every player), `unpublished` (off the catalog; only its developer and
 * testers may play). A suspension wins over publication.
 */
export const GameStates = ['published', 'unpublished', 'suspended'] as const;
export type GameState = (typeof GameStates)[number];

interface AdminGameRow {
  id: string;
  name: string;
  developer_id: string;
  developer_wallet: string;
  tiers: number;
  published_at: Date | null;
  suspended_at: Date | null;
  created_at: Date;
  payout_hold_seconds: number | null;
}

const ADMIN_GAME_SELECT = `SELECT g.id, g.name, g.developer_id, d.wallet AS developer_wallet,
    (SELECT count(*)::int FROM leaderboards l
     WHERE l.game_id = g.id AND l.retired_at IS NULL AND l.tournament_id IS NULL)
      AS tiers,
    g.published_at, g.suspended_at, g.created_at, g.payout_hold_seconds
  FROM games g JOIN developers d ON d.id = g.developer_id`;

const toAdminGame = (r: AdminGameRow): AdminGameRecord => ({
  id: r.id,
  name: r.name,
  state:
    r.suspended_at !== null ? 'suspended' : r.published_at !== null ? 'published' : 'unpublished',
  developerId: r.developer_id,
  developerWallet: r.developer_wallet,
  tiers: r.tiers,
  publishedAt: r.published_at,
  suspendedAt: r.suspended_at,
  createdAt: r.created_at,
  payoutHoldSeconds: r.payout_hold_seconds,
});

/** Every game, newest first; after `before` (the last game of the page before) when given. */
export async function listAdminGames(
  q: Queryable,
  page: { limit: number; before?: string | undefined },
): Promise<AdminGameRecord[]> {
  const rows = await q.query<AdminGameRow>(
    `${ADMIN_GAME_SELECT}
     WHERE ($1::uuid IS NULL OR (g.created_at, g.id) <
             (SELECT created_at, id FROM games WHERE id = $1))
     ORDER BY g.created_at DESC, g.id DESC
     LIMIT $2`,
    [page.before ?? null, page.limit],
  );
  return rows.map(toAdminGame);
}

export async function findAdminGame(q: Queryable, gameId: string): Promise<AdminGameRecord | null> {
  const rows = await q.query<AdminGameRow>(`${ADMIN_GAME_SELECT} WHERE g.id = $1`, [gameId]);
  return rows[0] ? toAdminGame(rows[0]) : null;
}

/**
 * Takes the game off the catalog (published_at back to null); false when there is no such game.
 * Its plays are untouched: the play statement now lets only its developer and testers in.
 */
export async function unpublishGame(q: Queryable, gameId: string, now: Date): Promise<boolean> {
  const rows = await q.query(
    `UPDATE games SET published_at = NULL,
       updated_at = CASE WHEN published_at IS NULL THEN updated_at ELSE $2 END
     WHERE id = $1 RETURNING id`,
    [gameId, now],
  );
  return rows.length > 0;
}

/** A developer as the operator lists it. */
export interface AdminDeveloperRecord {
  readonly id: string;
  readonly wallet: string;
  readonly accountId: string;
  readonly account: Account;
  readonly games: number;
  readonly createdAt: Date;
}

/**
 * Every developer, or those whose id or wallet is `search`, newest first; after `before` (the
 * last of the page before) when given.
 */
export async function listAdminDevelopers(
  q: Queryable,
  page: { limit: number; before?: string | undefined; search?: string | null | undefined },
): Promise<AdminDeveloperRecord[]> {
  const rows = await q.query<
    AccountRow & {
      developer_id: string;
      wallet: string;
      games: number;
      developer_created_at: Date;
    }
  >(
    `SELECT d.id AS developer_id, d.wallet, d.created_at AS developer_created_at,
       (SELECT count(*)::int FROM games g WHERE g.developer_id = d.id) AS games,
       a.id, a.kind, a.debits_pending, a.debits_posted, a.credits_pending, a.credits_posted
     FROM developers d JOIN accounts a ON a.id = d.account_id
     WHERE ($1::uuid IS NULL OR (d.created_at, d.id) <
             (SELECT created_at, id FROM developers WHERE id = $1))
       AND ($3 = '' OR d.id::text = lower($3) OR d.wallet = lower($3))
     ORDER BY d.created_at DESC, d.id DESC
     LIMIT $2`,
    [page.before ?? null, page.limit, page.search?.trim() ?? ''],
  );
  return rows.map((r) => ({
    id: r.developer_id,
    wallet: r.wallet,
    accountId: r.id,
    account: toAccount(r),
    games: r.games,
    createdAt: r.developer_created_at,
  }));
}

/** A developer's game by exact name, for the demo seed. */
export async function findGameIdByName(
  q: Queryable,
  developerId: string,
  name: string,
): Promise<string | null> {
  const rows = await q.query<{ id: string }>(
    'SELECT id FROM games WHERE developer_id = $1 AND name = $2 ORDER BY created_at LIMIT 1',
    [developerId, name],
  );
  return rows[0]?.id ?? null;
}

export async function countGameClients(q: Queryable, gameId: string): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM game_clients WHERE game_id = $1 AND revoked_at IS NULL',
    [gameId],
  );
  return row?.n ?? 0;
}

/** A player as the operator's search lists it, with its account. */
export interface AdminPlayerRecord {
  readonly id: string;
  readonly wallet: string | null;
  readonly name: string;
  readonly account: Account;
  readonly createdAt: Date;
}

/**
 * Players matching `search` (its id, its wallet, or words of its name, any letter case), or every
 * player when null; newest first, after `before` (the last of the page before) when given.
 */
export async function searchAdminPlayers(
  q: Queryable,
  page: { search: string | null; limit: number; before?: string | undefined },
): Promise<AdminPlayerRecord[]> {
  const search = page.search?.trim() ?? '';
  const rows = await q.query<
    AccountRow & { player_id: string; wallet: string | null; name: string; player_created_at: Date }
  >(
    `SELECT p.id AS player_id, p.wallet, p.name, p.created_at AS player_created_at,
       a.id, a.kind, a.debits_pending, a.debits_posted, a.credits_pending, a.credits_posted
     FROM players p JOIN accounts a ON a.id = p.account_id
     WHERE ($1 = '' OR p.id::text = lower($1) OR p.wallet = lower($1)
            OR p.name ILIKE '%' || $2 || '%')
       AND ($3::uuid IS NULL OR (p.created_at, p.id) <
             (SELECT created_at, id FROM players WHERE id = $3))
     ORDER BY p.created_at DESC, p.id DESC
     LIMIT $4`,
    [search, escapeLike(search), page.before ?? null, page.limit],
  );
  return rows.map((r) => ({
    id: r.player_id,
    wallet: r.wallet,
    name: r.name,
    account: toAccount(r),
    createdAt: r.player_created_at,
  }));
}

/** `text` matched literally inside a LIKE pattern (its `%`, `_` and `\` escaped). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
