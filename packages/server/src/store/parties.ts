import { CoinopError, type Clock, type Ids } from '@coinop/core';
import { generatePublicId, generateSecret, hashSecret } from '../auth/secrets.js';
import { PgErrorCodes, pgErrorCode, type Db, type Queryable } from './db.js';
import { insertAccount } from './ledger.js';
import { AdvisoryLocks } from './advisory-locks.js';

/** Players, developers, their credentials, and the arcade itself: who can hold HST. */

export interface PlayerRecord {
  id: string;
  wallet: string | null;
  name: string;
  avatarUrl: string | null;
  accountId: string;
  createdAt: Date;
}

export interface DeveloperRecord {
  id: string;
  wallet: string;
  accountId: string;
  createdAt: Date;
}

export interface ArcadeRecord {
  id: string;
  name: string;
  accountId: string;
  mintAccountId: string;
}

/** Wallet addresses are stored lower-case so one wallet is one identity however it is typed. */
export function normalizeWallet(wallet: string): string {
  return wallet.trim().toLowerCase();
}

/** Finds the installation's arcade and mint account, creating both on first start. */
export async function ensureArcade(db: Db, clock: Clock, ids: Ids): Promise<ArcadeRecord> {
  return db.transaction(async (tx) => {
    // Serialises first start across processes sharing one database.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [AdvisoryLocks.arcade]);
    const found = await tx.query<{ id: string; name: string; account_id: string }>(
      'SELECT id, name, account_id FROM arcades ORDER BY created_at LIMIT 1',
    );
    const mint = await tx.query<{ id: string }>(
      "SELECT id FROM accounts WHERE kind = 'mint' ORDER BY created_at LIMIT 1",
    );
    const now = clock.now();
    let mintAccountId = mint[0]?.id;
    if (!mintAccountId) {
      mintAccountId = ids.next();
      await insertAccount(tx, mintAccountId, 'mint', now);
    }
    const row = found[0];
    if (row) return { id: row.id, name: row.name, accountId: row.account_id, mintAccountId };
    const arcade = { id: ids.next(), name: 'coinop', accountId: ids.next(), mintAccountId };
    await insertAccount(tx, arcade.accountId, 'arcade', now);
    await tx.query(
      'INSERT INTO arcades (id, name, account_id, created_at) VALUES ($1, $2, $3, $4)',
      [arcade.id, arcade.name, arcade.accountId, now],
    );
    return arcade;
  });
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
    if (pgErrorCode(error) === PgErrorCodes.uniqueViolation) {
      throw new CoinopError('wallet_already_registered', `wallet ${wallet} already has a player`, {
        details: { field: 'wallet', wallet },
      });
    }
    throw error;
  }
  return player;
}

function defaultPlayerName(wallet: string | null, id: string): string {
  return wallet ? `${wallet.slice(0, 6)}…${wallet.slice(-4)}` : `player-${id.slice(-6)}`;
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

/** Creates the developer of a wallet, or returns the one it already has. */
export async function ensureDeveloper(
  db: Db,
  clock: Clock,
  ids: Ids,
  wallet: string,
): Promise<DeveloperRecord> {
  const normalized = normalizeWallet(wallet);
  return db.transaction(async (tx) => {
    const now = clock.now();
    const accountId = ids.next();
    const id = ids.next();
    await insertAccount(tx, accountId, 'developer', now);
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO developers (id, wallet, account_id, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (wallet) DO NOTHING RETURNING id`,
      [id, normalized, accountId, now],
    );
    if (inserted.length === 1) return { id, wallet: normalized, accountId, createdAt: now };
    // The wallet already had a developer: drop the account made for the one we did not create.
    await tx.query('DELETE FROM accounts WHERE id = $1', [accountId]);
    const [row] = await tx.query<{ id: string; account_id: string; created_at: Date }>(
      'SELECT id, account_id, created_at FROM developers WHERE wallet = $1',
      [normalized],
    );
    if (!row) throw new Error(`developer for ${normalized} vanished`);
    return { id: row.id, wallet: normalized, accountId: row.account_id, createdAt: row.created_at };
  });
}

export async function findDeveloper(q: Queryable, id: string): Promise<DeveloperRecord | null> {
  const rows = await q.query<{ id: string; wallet: string; account_id: string; created_at: Date }>(
    'SELECT id, wallet, account_id, created_at FROM developers WHERE id = $1',
    [id],
  );
  const r = rows[0];
  return r
    ? { id: r.id, wallet: r.wallet, accountId: r.account_id, createdAt: r.created_at }
    : null;
}

/** A new API key for a developer. The whole key is returned once; only its hash is stored. */
export async function createApiKey(
  q: Queryable,
  clock: Clock,
  developerId: string,
): Promise<{ apiKey: string; prefix: string; createdAt: Date }> {
  const prefix = generatePublicId('ck', 6);
  const apiKey = `${prefix}.${generateSecret('sk').slice(3)}`;
  const createdAt = clock.now();
  await q.query(
    'INSERT INTO api_keys (prefix, developer_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)',
    [prefix, developerId, hashSecret(apiKey), createdAt],
  );
  return { apiKey, prefix, createdAt };
}

/** A new client id and secret for a game's server. The secret is returned once. */
export async function createGameClient(
  q: Queryable,
  clock: Clock,
  gameId: string,
): Promise<{ clientId: string; clientSecret: string }> {
  const clientId = generatePublicId('cid', 12);
  const clientSecret = generateSecret('csec');
  await q.query(
    'INSERT INTO game_clients (client_id, game_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)',
    [clientId, gameId, hashSecret(clientSecret), clock.now()],
  );
  return { clientId, clientSecret };
}
