import type { AccountKind, TransferKind, TransferReason } from '@coinop/core';
import type { Queryable } from './db.js';

/**
 * The operator's list of ledger transfers (issue 31, docs/reference/admin-api.md "Ledger
 * transfers"): newest first by `(created_at, id)`, since chain transfer ids are UUIDv5 and not
 * time-ordered, with a keyset cursor, so a page never repeats or skips a row while new transfers
 * arrive (they are newer than every cursor).
 */

/** Where a transfer stands in the list: microseconds since the epoch (exact), then its id. */
export interface TransferPosition {
  readonly atMicros: bigint;
  readonly id: string;
}

export interface TransferFilter {
  /** Either side of the transfer. */
  readonly accountId: string | null;
  readonly kind: TransferKind | null;
  readonly reason: TransferReason | null;
  /** Half-open on created_at: from inclusive, to exclusive; microseconds since the epoch. */
  readonly fromMicros: bigint | null;
  readonly toMicros: bigint | null;
}

export interface StoredTransfer {
  readonly id: string;
  readonly kind: TransferKind;
  readonly reason: TransferReason;
  readonly debitAccountId: string;
  readonly creditAccountId: string;
  readonly amountUnits: bigint;
  readonly playId: string | null;
  readonly pendingId: string | null;
  readonly createdAt: Date;
  readonly position: TransferPosition;
}

/** Who an account belongs to, as far as a row names it. */
export interface AccountOwner {
  readonly accountId: string;
  readonly kind: AccountKind;
  readonly playerId: string | null;
  readonly playerName: string | null;
  readonly developerId: string | null;
  readonly developerWallet: string | null;
  readonly arcadeName: string | null;
  readonly vaultChainId: string | null;
  readonly vaultAddress: string | null;
  readonly tournamentName: string | null;
  readonly roundNumber: number | null;
}

const MICROS = (param: string) =>
  `timestamptz 'epoch' + ${param}::bigint * interval '1 microsecond'`;

const COLUMNS = `t.id, t.kind, t.reason, t.debit_account_id, t.credit_account_id,
  t.amount::text AS amount, t.play_id, t.pending_id, t.created_at,
  (extract(epoch FROM t.created_at) * 1000000)::bigint::text AS micros`;

/**
 * The statement for a filter: only the conditions given, so each variant is planned for what it
 * filters. An account filter reads each side down its own index (credit, then debit; a transfer
 * never has one account on both sides) and merges the two newest-first runs.
 */
function transfersSql(
  filter: TransferFilter,
  after: TransferPosition | null,
  limit: number,
  params: unknown[],
): string {
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const common: string[] = [];
  if (filter.kind !== null) common.push(`t.kind = ${bind(filter.kind)}`);
  if (filter.reason !== null) common.push(`t.reason = ${bind(filter.reason)}`);
  if (filter.fromMicros !== null) {
    common.push(`t.created_at >= ${MICROS(bind(filter.fromMicros.toString()))}`);
  }
  if (filter.toMicros !== null) {
    common.push(`t.created_at < ${MICROS(bind(filter.toMicros.toString()))}`);
  }
  if (after !== null) {
    const at = MICROS(bind(after.atMicros.toString()));
    common.push(`(t.created_at, t.id) < (${at}, ${bind(after.id)}::uuid)`);
  }
  // One more than the page tells whether an older page follows.
  const top = bind(limit + 1);
  const order = `ORDER BY t.created_at DESC, t.id DESC LIMIT ${top}`;
  const where = (extra: string[]) => {
    const all = [...extra, ...common];
    return all.length === 0 ? '' : `WHERE ${all.join(' AND ')}`;
  };
  if (filter.accountId === null) {
    return `SELECT ${COLUMNS} FROM transfers t ${where([])} ${order}`;
  }
  const account = bind(filter.accountId);
  const side = (column: string) =>
    `(SELECT ${COLUMNS} FROM transfers t ${where([`t.${column} = ${account}::uuid`])} ${order})`;
  return `SELECT * FROM (${side('credit_account_id')} UNION ALL ${side('debit_account_id')}) t
    ORDER BY t.created_at DESC, t.id DESC LIMIT ${top}`;
}

/** A page of transfers newest first, after `after` (from the newest when null). */
export async function listTransfers(
  q: Queryable,
  filter: TransferFilter,
  after: TransferPosition | null,
  limit: number,
): Promise<{ transfers: StoredTransfer[]; more: boolean }> {
  const params: unknown[] = [];
  const sql = transfersSql(filter, after, limit, params);
  const rows = await q.query<{
    id: string;
    kind: TransferKind;
    reason: TransferReason;
    debit_account_id: string;
    credit_account_id: string;
    amount: string;
    play_id: string | null;
    pending_id: string | null;
    created_at: Date;
    micros: string;
  }>(sql, params);
  return {
    transfers: rows.slice(0, limit).map((r) => ({
      id: r.id,
      kind: r.kind,
      reason: r.reason,
      debitAccountId: r.debit_account_id,
      creditAccountId: r.credit_account_id,
      amountUnits: BigInt(r.amount),
      playId: r.play_id,
      pendingId: r.pending_id,
      createdAt: r.created_at,
      position: { atMicros: BigInt(r.micros), id: r.id },
    })),
    more: rows.length > limit,
  };
}

const OWNERS_SQL = `
  SELECT a.id, a.kind, p.id AS player_id, p.name AS player_name, d.id AS developer_id,
         d.wallet AS developer_wallet, ar.name AS arcade_name, c.chain_id::text AS chain_id,
         c.vault_address, tn.name AS tournament_name, r.number AS round_number
  FROM accounts a
    LEFT JOIN players p ON a.kind = 'player' AND p.account_id = a.id
    LEFT JOIN developers d ON a.kind = 'developer' AND d.account_id = a.id
    LEFT JOIN arcades ar ON a.kind = 'arcade' AND ar.account_id = a.id
    LEFT JOIN chain_checkpoints c ON a.kind = 'vault' AND c.account_id = a.id
    -- A pool account's id is its round's (018_tournaments.sql).
    LEFT JOIN tournament_rounds r ON a.kind = 'pool' AND r.id = a.id
    LEFT JOIN tournaments tn ON tn.id = r.tournament_id
  WHERE a.id = ANY($1::uuid[])`;

/** The owners of the given accounts, in one statement however many there are. */
export async function accountOwners(
  q: Queryable,
  accountIds: readonly string[],
): Promise<Map<string, AccountOwner>> {
  if (accountIds.length === 0) return new Map();
  const rows = await q.query<{
    id: string;
    kind: AccountKind;
    player_id: string | null;
    player_name: string | null;
    developer_id: string | null;
    developer_wallet: string | null;
    arcade_name: string | null;
    chain_id: string | null;
    vault_address: string | null;
    tournament_name: string | null;
    round_number: number | null;
  }>(OWNERS_SQL, [[...new Set(accountIds)]], 'ledger_account_owners');
  return new Map(
    rows.map((r) => [
      r.id,
      {
        accountId: r.id,
        kind: r.kind,
        playerId: r.player_id,
        playerName: r.player_name,
        developerId: r.developer_id,
        developerWallet: r.developer_wallet,
        arcadeName: r.arcade_name,
        vaultChainId: r.chain_id,
        vaultAddress: r.vault_address,
        tournamentName: r.tournament_name,
        roundNumber: r.round_number,
      },
    ]),
  );
}
