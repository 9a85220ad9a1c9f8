import { CoinopError, type Clock, type Ids } from '@coinop/core';
import { getAddress } from 'viem';
import type { Db, Queryable } from './db.js';
import { PgErrorCodes, pgErrorCode } from './postgres-errors.js';
import { insertAccount } from './ledger.js';

/** Players: who plays, by wallet (or none, for players an operator registers). */

export interface PlayerRecord {
  id: string;
  wallet: string | null;
  name: string;
  avatarUrl: string | null;
  accountId: string;
  createdAt: Date;
}

/** Wallet addresses are stored lower-case so one wallet is one identity however it is typed. */
export function normalizeWallet(wallet: string): string {
  return wallet.trim().toLowerCase();
}

export async function createPlayer(
  db: Db,
  clock: Clock,
  ids: Ids,
  input: { wallet: string | null; name?: string | undefined; avatarUrl?: string | null },
): Promise<PlayerRecord> {
  const id = ids.next();
  const wallet = input.wallet === null ? null : normalizeWallet(input.wallet);
  const player: PlayerRecord = {
    id,
    wallet,
    name: input.name ?? defaultPlayerName(wallet, id),
    avatarUrl: input.avatarUrl ?? null,
    accountId: ids.next(),
    createdAt: clock.now(),
  };
  try {
    await db.transaction(async (tx) => {
      await insertAccount(tx, player.accountId, 'player', player.createdAt);
      await tx.query(
        `INSERT INTO players (id, wallet, name, avatar_url, account_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          player.id,
          player.wallet,
          player.name,
          player.avatarUrl,
          player.accountId,
          player.createdAt,
        ],
      );
    });
  } catch (error) {
    if (pgErrorCode(error) === PgErrorCodes.uniqueViolation && wallet !== null) {
      // The conflict names the player that has the wallet, so the caller can use it instead.
      const existing = await findPlayerByWallet(db, wallet);
      throw new CoinopError(
        'wallet_already_registered',
        existing
          ? `wallet ${wallet} already belongs to player ${existing.id}`
          : `wallet ${wallet} already has a player`,
        { details: { field: 'wallet', wallet, ...(existing ? { playerId: existing.id } : {}) } },
      );
    }
    throw error;
  }
  return player;
}

/**
 * A new player's name until they choose one: their wallet's short form as the web app writes every
 * address (EIP-55 checksummed, `0x7099…79C8`, issue 28), or `player-<end of id>` without one.
 */
export function defaultPlayerName(wallet: string | null, id: string): string {
  if (!wallet) return `player-${id.slice(-6)}`;
  const checksummed = getAddress(wallet);
  return `${checksummed.slice(0, 6)}…${checksummed.slice(-4)}`;
}

const PLAYER_COLUMNS = 'id, wallet, name, avatar_url, account_id, created_at';
interface PlayerRow {
  id: string;
  wallet: string | null;
  name: string;
  avatar_url: string | null;
  account_id: string;
  created_at: Date;
}
const toPlayer = (r: PlayerRow): PlayerRecord => ({
  id: r.id,
  wallet: r.wallet,
  name: r.name,
  avatarUrl: r.avatar_url,
  accountId: r.account_id,
  createdAt: r.created_at,
});

export async function findPlayer(q: Queryable, id: string): Promise<PlayerRecord | null> {
  const rows = await q.query<PlayerRow>(
    `SELECT ${PLAYER_COLUMNS} FROM players WHERE id = $1`,
    [id],
    'players_find',
  );
  return rows[0] ? toPlayer(rows[0]) : null;
}

export async function findPlayerByWallet(
  q: Queryable,
  wallet: string,
): Promise<PlayerRecord | null> {
  const rows = await q.query<PlayerRow>(`SELECT ${PLAYER_COLUMNS} FROM players WHERE wallet = $1`, [
    normalizeWallet(wallet),
  ]);
  return rows[0] ? toPlayer(rows[0]) : null;
}
