import {
  CoinopError,
  availableUnits,
  formatHst,
  lockedUnits,
  wholeHstToUnits,
  type Account,
  type Units,
} from '@coinop/core';
import { UNITS_PER_HST } from '@coinop/protocol';
import { LedgerSumOutOfRange } from '../store/errors.js';
import { auditLedger, applyTransfers, findAccount, lockAccount } from '../store/ledger.js';
import { createApiKey } from '../credentials/api-keys.js';
import { createGameClient } from '../credentials/game-clients.js';
import { ensureDeveloper } from '../store/developers.js';
import { findGame, insertLeaderboard, publishGame, type GameRecord } from '../store/games.js';
import {
  findAdminGame,
  listAdminDevelopers,
  listAdminGames,
  searchAdminPlayers,
  resolveAccount,
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
import { reconcileChainVault, type ChainReconciliationWire } from '../chain/reconciliation.js';
import { mintPlayerToken } from '../credentials/admin-player-tokens.js';
import { CHAIN_MODE_MINTS_NOTHING } from '../config.js';

export { GameStates } from '../store/admin.js';
export type { AdminDeveloperRecord, AdminGameRecord } from '../store/admin.js';

/**
 * The operator's use cases behind `/admin` and `coinop admin`. Amounts come in as base units and
 * go out as HST numbers; the HTTP edge does the parsing.
 */

/** One mint above a billion HST is a typo; it also keeps totals far below bigint's limit. */
export const MAX_MINT_UNITS: Units = 1_000_000_000n * UNITS_PER_HST;

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

/**
 * The operator's mint (`POST /admin/hst/mints`): refused in chain mode, where the ledger's HST is
 * the vault's. A mint there is a shortfall the watcher halts on only at its next reconciliation,
 * up to a minute later, while withdrawals go on paying out of other players' HST.
 */
export async function mintHstAsOperator(
  arcade: ArcadeServices,
  input: { id: string; amountUnits: Units; transferId?: string | undefined },
): Promise<{ transferId: string; accountId: string; balanceUnits: Units }> {
  if (arcade.config.chain) {
    throw new CoinopError(
      'mint_refused_in_chain_mode',
      `mint refused: ${CHAIN_MODE_MINTS_NOTHING}. Put HST in the vault for the account instead: ` +
        'a deposit into the vault for it, or an ERC-20 transfer to the vault (recorded as ' +
        'surplus) credited with coinop admin chain credit-surplus 0xTXHASH:LOG --account ' +
        `${input.id}`,
    );
  }
  return mintHst(arcade, input);
}

/**
 * Mints `amountUnits` into the account of `id` (an account, player, developer or arcade id) as
 * one posted transfer from the mint. `transferId` makes a retry a no-op, as for any transfer.
 * Callers keep it out of chain mode: the operator's through `mintHstAsOperator`, the faucet and
 * the demo seed by their config.
 */
export async function mintHst(
  arcade: ArcadeServices,
  input: { id: string; amountUnits: Units; transferId?: string | undefined },
  /** Runs with the credited account locked, before the mint: throw to refuse it. */
  check?: (account: Account) => void,
): Promise<{ transferId: string; accountId: string; balanceUnits: Units }> {
  if (input.amountUnits <= 0n) {
    throw new CoinopError('invalid_amount', 'amount must be greater than 0', {
      details: { field: 'amount' },
    });
  }
  if (input.amountUnits > MAX_MINT_UNITS) {
    throw new CoinopError(
      'invalid_amount',
      `amount must be at most ${formatHst(MAX_MINT_UNITS)} HST per mint`,
      { details: { field: 'amount' } },
    );
  }
  const { accountId, kind } = await requireAccount(arcade, input.id);
  if (kind === 'mint' || kind === 'escrow' || kind === 'vault') {
    // Escrow only ever holds play locks; the mint cannot pay itself; a vault account moves only
    // HST that moved on chain.
    throw new CoinopError(
      'validation_failed',
      `accountId ${input.id} is the ${kind} account; mint to a player, developer or arcade`,
      { details: { field: 'accountId' } },
    );
  }
  const transferId = input.transferId ?? arcade.ids.next();
  try {
    const account = await arcade.db.transaction(async (tx) => {
      if (check) {
        const locked = await lockAccount(tx, accountId);
        if (locked) check(locked);
      }
      await applyTransfers(
        tx,
        [
          {
            id: transferId,
            kind: 'posted',
            debitAccountId: arcade.record.mintAccountId,
            creditAccountId: accountId,
            amount: input.amountUnits,
            pendingId: null,
            reason: 'mint',
            playId: null,
          },
        ],
        arcade.clock.now(),
      );
      return findAccount(tx, accountId);
    });
    if (!account) throw new Error(`account ${accountId} vanished during a mint`);
    return { transferId, accountId, balanceUnits: availableUnits(account) };
  } catch (error) {
    if (error instanceof LedgerSumOutOfRange) {
      throw new CoinopError('invalid_amount', 'amount would take the HST supply past its limit', {
        details: { field: 'amount' },
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * Spendable and locked HST of the account of `id` (an account, player, developer or arcade id),
 * as exact decimal strings.
 */
export async function accountBalance(
  arcade: ArcadeServices,
  id: string,
): Promise<{ accountId: string; balance: string; pending: string }> {
  const { accountId } = await requireAccount(arcade, id);
  const account = await findAccount(arcade.db, accountId);
  if (!account) throw accountNotFound(id);
  return {
    accountId,
    balance: formatHst(availableUnits(account)),
    pending: formatHst(lockedUnits(account)),
  };
}

/** The ledger's totals, in exact decimal strings of HST (`formatHst`). */
export interface AuditReport {
  debitsPosted: string;
  creditsPosted: string;
  debitsPending: string;
  creditsPending: string;
  minted: string;
  vaultHeld: string;
  balanced: boolean;
  /**
   * In chain mode only (always true there): this audit is of the ledger alone unless `chain` is
   * asked for, and HST minted is a shortfall no token backs.
   */
  chainMode?: true;
  /** With `chain`: the vault on chain against the ledger, at one block. */
  chain?: ChainReconciliationWire;
}

/**
 * The ledger's totals and whether they balance; with `chain`, also the chain vault reconciled
 * with the ledger (chain mode only: `chain_mode_off` otherwise).
 */
export async function auditHst(
  arcade: ArcadeServices,
  options: { chain?: boolean } = {},
): Promise<AuditReport> {
  const chainConfig = arcade.config.chain;
  if (options.chain && !chainConfig) {
    throw new CoinopError(
      'chain_mode_off',
      'this arcade runs without a chain vault (--chain-vault-address): there is no vault to ' +
        'reconcile with',
    );
  }
  const audit = await auditLedger(arcade.db);
  const chain =
    options.chain && chainConfig ? await reconcileChainVault(arcade.db, chainConfig) : null;
  return {
    debitsPosted: formatHst(audit.debitsPosted),
    creditsPosted: formatHst(audit.creditsPosted),
    debitsPending: formatHst(audit.debitsPending),
    creditsPending: formatHst(audit.creditsPending),
    minted: formatHst(audit.minted),
    vaultHeld: formatHst(audit.vaultHeld),
    balanced: audit.balanced,
    ...(chainConfig ? { chainMode: true as const } : {}),
    ...(chain ? { chain } : {}),
  };
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

/** `arcade` names this arcade's own account: the operator need not look its id up. */
async function requireAccount(arcade: ArcadeServices, id: string) {
  const found = await resolveAccount(arcade.db, id === 'arcade' ? arcade.record.id : id);
  if (!found) throw accountNotFound(id);
  return found;
}

function gameNotFound(gameId: string): CoinopError {
  return new CoinopError('game_not_found', `game ${gameId} does not exist`, {
    details: { gameId },
  });
}

function accountNotFound(id: string): CoinopError {
  return new CoinopError(
    'account_not_found',
    WALLET_ADDRESS.test(id)
      ? `no player or developer has wallet ${normalizeWallet(id)}`
      : `no account, player, developer or arcade has id ${id}`,
    { details: { accountId: id } },
  );
}
