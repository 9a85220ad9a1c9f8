import { CoinopError, availableUnits, formatHst, lockedUnits, wholeHstToUnits } from '@coinop/core';
import { findAccount } from '../store/ledger.js';
import { createApiKey } from '../credentials/api-keys.js';
import { createGameClient } from '../credentials/game-clients.js';
import { ensureDeveloper } from '../store/developers.js';
import { findGame, insertLeaderboard, publishGame, type GameRecord } from '../store/games.js';
import {
  findAdminGame,
  listAdminDevelopers,
  listAdminGames,
  searchAdminPlayers,
  unpublishGame,
  WALLET_ADDRESS,
  type AdminDeveloperRecord,
  type AdminGameRecord,
} from '../store/admin.js';
import {
  createPlayer,
  findPlayer,
  findPlayerByWallet,
  normalizeWallet,
  type PlayerRecord,
} from '../store/players.js';
import { notifyGameChanged } from '../store/cache-notices.js';
import { approvePendingRequestOfGame } from '../store/publish-requests.js';
import type { ArcadeServices } from './arcade-services.js';
import { mintPlayerToken } from '../credentials/admin-player-tokens.js';

export { GameStates } from '../store/admin.js';
export type { AdminDeveloperRecord, AdminGameRecord } from '../store/admin.js';

/**
 * The operator's use cases behind `/admin` and `coinop admin`. Amounts come in as base units and
 * go out as HST numbers; the HTTP edge does the parsing.
 */

/** Creates the wallet's developer (or finds it) and issues a new API key, shown only now. */
export async function createDeveloper(
  arcade: ArcadeServices,
  wallet: string,
): Promise<{ developerId: string; apiKey: string }> {
  const developer = await ensureDeveloper(arcade.db, arcade.clock, arcade.ids, wallet);
  const { apiKey } = await createApiKey(arcade.db, arcade.clock, developer.id);
  return { developerId: developer.id, apiKey };
}

/** A new client id and secret for the game's server; the secret is shown only now. */
export async function createClient(
  arcade: ArcadeServices,
  gameId: string,
): Promise<{ clientId: string; clientSecret: string }> {
  await requireGame(arcade, gameId);
  return createGameClient(arcade.db, arcade.clock, gameId);
}

export async function registerPlayer(
  arcade: ArcadeServices,
  input: { wallet: string; name?: string | undefined },
): Promise<{ playerId: string }> {
  const player = await createPlayer(arcade.db, arcade.clock, arcade.ids, input);
  return { playerId: player.id };
}

/** Lists the game in the arcade's catalog; publishing again keeps the first `publishedAt`. */
export async function publish(arcade: ArcadeServices, gameId: string): Promise<GameRecord> {
  const game = await arcade.db.transaction(async (tx) => {
    const published = await publishGame(tx, arcade.clock, gameId);
    if (!published) throw gameNotFound(gameId);
    // Publishing answers the developer's request too, if one is waiting.
    await approvePendingRequestOfGame(tx, gameId, arcade.clock.now());
    await notifyGameChanged(tx, gameId);
    return published;
  });
  arcade.games.invalidate(gameId);
  return game;
}

/** Adds a tier to a game. Tiers are immutable once created, so the game cache is only refreshed. */
export async function addLeaderboard(
  arcade: ArcadeServices,
  input: { gameId: string; name: string; costHst: number; leadersMax?: number | undefined },
): Promise<{ id: string }> {
  await requireGame(arcade, input.gameId);
  const board = await arcade.db.transaction(async (tx) => {
    const inserted = await insertLeaderboard(tx, arcade.clock, arcade.ids, input.gameId, {
      name: input.name,
      costUnits: wholeHstToUnits(input.costHst),
      leadersMax: input.leadersMax ?? arcade.config.defaultLeadersMax,
    });
    await notifyGameChanged(tx, input.gameId);
    return inserted;
  });
  arcade.games.invalidate(input.gameId);
  return { id: board.id };
}

/** A page of a listing: at most `limit`, after `before` (the last item of the page before). */
export interface AdminPage {
  readonly limit: number;
  readonly before?: string | undefined;
}

/** Every game with where it stands, newest first; `next` is the `before` of the next page. */
export async function listGames(
  arcade: ArcadeServices,
  page: AdminPage,
): Promise<{ games: AdminGameRecord[]; next: string | null }> {
  const games = await listAdminGames(arcade.db, page);
  return { games, next: nextCursor(games, page.limit) };
}

/**
 * Takes the game off the catalog: new plays are refused to everyone but its developer and
 * testers, as before it was published. Unlike a suspension, plays already open keep settling.
 * Idempotent; publishing again gives a new publishedAt.
 */
export async function unpublish(arcade: ArcadeServices, gameId: string): Promise<AdminGameRecord> {
  await arcade.db.transaction(async (tx) => {
    if (!(await unpublishGame(tx, gameId, arcade.clock.now()))) throw gameNotFound(gameId);
    await notifyGameChanged(tx, gameId);
  });
  arcade.games.invalidate(gameId);
  const game = await findAdminGame(arcade.db, gameId);
  if (!game) throw gameNotFound(gameId);
  return game;
}

/** Every developer (or the one of an id or wallet) with how many games it registered, newest first. */
export async function listDevelopers(
  arcade: ArcadeServices,
  page: AdminPage & { search?: string | null },
): Promise<{ developers: AdminDeveloperRecord[]; next: string | null }> {
  const developers = await listAdminDevelopers(arcade.db, page);
  return { developers, next: nextCursor(developers, page.limit) };
}

/** A player by id or wallet address, with its account's spendable and locked HST (exact text). */
export async function playerProfile(
  arcade: ArcadeServices,
  ref: string,
): Promise<{
  playerId: string;
  wallet: string | null;
  name: string;
  accountId: string;
  balance: string;
  pending: string;
  createdAt: Date;
}> {
  const player = await requirePlayer(arcade, ref);
  const account = await findAccount(arcade.db, player.accountId);
  if (!account) throw new Error(`player ${player.id} has no account ${player.accountId}`);
  return {
    playerId: player.id,
    wallet: player.wallet,
    name: player.name,
    accountId: player.accountId,
    balance: formatHst(availableUnits(account)),
    pending: formatHst(lockedUnits(account)),
    createdAt: player.createdAt,
  };
}

/**
 * Players whose id, wallet or name matches `search` (every player when null), newest first,
 * each with its spendable and locked HST.
 */
export async function searchPlayers(
  arcade: ArcadeServices,
  page: AdminPage & { search: string | null },
): Promise<{
  players: {
    id: string;
    wallet: string | null;
    name: string;
    accountId: string;
    balance: string;
    pending: string;
    createdAt: Date;
  }[];
  next: string | null;
}> {
  const found = await searchAdminPlayers(arcade.db, page);
  const players = found.map((p) => ({
    id: p.id,
    wallet: p.wallet,
    name: p.name,
    accountId: p.account.id,
    balance: formatHst(availableUnits(p.account)),
    pending: formatHst(lockedUnits(p.account)),
    createdAt: p.createdAt,
  }));
  return { players, next: nextCursor(players, page.limit) };
}

/** The player of `ref`, a player id or a wallet address; `player_not_found` when none. */
export async function requirePlayer(arcade: ArcadeServices, ref: string): Promise<PlayerRecord> {
  const player = WALLET_ADDRESS.test(ref)
    ? await findPlayerByWallet(arcade.db, ref)
    : await findPlayer(arcade.db, ref);
  if (!player) {
    const what = WALLET_ADDRESS.test(ref) ? `wallet ${normalizeWallet(ref)}` : `id ${ref}`;
    throw new CoinopError('player_not_found', `no player has ${what}`, {
      details: { player: ref },
    });
  }
  return player;
}

/**
 * A player token minted by the operator, to test a game server without a browser; any lifetime up
 * to `maxTtlSeconds`.
 */
export async function mintTokenOfPlayer(
  arcade: ArcadeServices,
  signin: Parameters<typeof mintPlayerToken>[1],
  input: Parameters<typeof mintPlayerToken>[2],
): Promise<{ access_token: string }> {
  return mintPlayerToken(arcade.db, signin, input);
}

function nextCursor(items: readonly { id: string }[], limit: number): string | null {
  const last = items.at(-1);
  return items.length === limit && last ? last.id : null;
}

async function requireGame(arcade: ArcadeServices, gameId: string): Promise<GameRecord> {
  const game = await findGame(arcade.db, gameId);
  if (!game) throw gameNotFound(gameId);
  return game;
}

function gameNotFound(gameId: string): CoinopError {
  return new CoinopError('game_not_found', `game ${gameId} does not exist`, {
    details: { gameId },
  });
}
