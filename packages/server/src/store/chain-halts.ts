import { keyParams, type VaultKey } from './chain-checkpoints.js';
import type { Queryable } from './db.js';

/**
 * Halts of a vault's senders (migration 022, docs/concepts/chain.md#halts): while one is open, no
 * withdrawal, settlement or refund is recorded for broadcast. A halt is opened with the
 * checkpoint row locked for update, and a sender checks for one with the row locked for share in
 * the transaction that records its transaction, so the two are ordered: a batch recorded after a
 * halt committed sees it, whichever process halted.
 */

export const HaltCauses = ['reorg', 'chain_mismatch', 'shortfall'] as const;
export type HaltCause = (typeof HaltCauses)[number];

export interface HaltRecord extends VaultKey {
  readonly id: string;
  readonly cause: HaltCause;
  /** What was found, in words, for the operator. */
  readonly detail: string;
  readonly blockNumber: bigint | null;
  /** For a shortfall: how much less the vault held than the ledger owed. */
  readonly shortfallUnits: bigint | null;
  readonly haltedAt: Date;
  readonly resumeRequestedAt: Date | null;
  readonly resumedBy: string | null;
  readonly resumeReason: string | null;
  /** After a reorganisation: the block the watcher reads again from. */
  readonly resumeFromBlock: bigint | null;
  readonly acceptedShortfallUnits: bigint | null;
  /** When HST could leave again; null while the halt stands. */
  readonly resumedAt: Date | null;
}

interface HaltRow {
  id: string;
  chain_id: bigint | number;
  vault_address: string;
  cause: HaltCause;
  detail: string;
  block_number: bigint | number | null;
  shortfall_units: string | null;
  halted_at: Date;
  resume_requested_at: Date | null;
  resumed_by: string | null;
  resume_reason: string | null;
  resume_from_block: bigint | number | null;
  accepted_shortfall_units: string | null;
  resumed_at: Date | null;
}

const COLUMNS =
  'id, chain_id, vault_address, cause, detail, block_number, ' +
  'shortfall_units::text AS shortfall_units, halted_at, resume_requested_at, resumed_by, ' +
  'resume_reason, resume_from_block, accepted_shortfall_units::text AS accepted_shortfall_units, ' +
  'resumed_at';

const big = (v: bigint | number | string | null) => (v === null ? null : BigInt(v));

function toHalt(row: HaltRow): HaltRecord {
  return {
    id: row.id,
    chainId: Number(row.chain_id),
    vaultAddress: row.vault_address,
    cause: row.cause,
    detail: row.detail,
    blockNumber: big(row.block_number),
    shortfallUnits: big(row.shortfall_units),
    haltedAt: row.halted_at,
    resumeRequestedAt: row.resume_requested_at,
    resumedBy: row.resumed_by,
    resumeReason: row.resume_reason,
    resumeFromBlock: big(row.resume_from_block),
    acceptedShortfallUnits: big(row.accepted_shortfall_units),
    resumedAt: row.resumed_at,
  };
}

/** The halt of the vault not yet resumed, if any. */
export async function openHaltOf(q: Queryable, key: VaultKey): Promise<HaltRecord | null> {
  const rows = await q.query<HaltRow>(
    `SELECT ${COLUMNS} FROM chain_halts
     WHERE chain_id = $1 AND vault_address = $2 AND resumed_at IS NULL`,
    keyParams(key),
  );
  return rows[0] ? toHalt(rows[0]) : null;
}

/** What a sender must know before HST may leave the vault: its open halt, its last reconciliation. */
export interface SendingGate {
  readonly halt: HaltRecord | null;
  /** When the watcher last reconciled the vault with the ledger; null: never since its start. */
  readonly reconciledAt: Date | null;
}

/**
 * The open halt and the last reconciliation, read with the checkpoint row locked for share until
 * the transaction ends: what a sender calls in the transaction that records a transaction for
 * broadcast, so a halt opened by any process before it commits is seen, and none can be opened
 * until it commits.
 */
export async function sendingGate(tx: Queryable, key: VaultKey): Promise<SendingGate> {
  const rows = await tx.query<{ reconciled_at: Date | null }>(
    `SELECT reconciled_at FROM chain_checkpoints WHERE chain_id = $1 AND vault_address = $2
     FOR SHARE`,
    keyParams(key),
  );
  return { halt: await openHaltOf(tx, key), reconciledAt: rows[0]?.reconciled_at ?? null };
}

/**
 * Opens a halt (inside `tx`) unless one is open already, with the checkpoint row locked first so
 * that no sender records a transaction after it. True when this call opened it.
 */
export async function openHalt(
  tx: Queryable,
  key: VaultKey,
  halt: {
    id: string;
    cause: HaltCause;
    detail: string;
    blockNumber: bigint | null;
    shortfallUnits: bigint | null;
  },
  now: Date,
): Promise<boolean> {
  await tx.query(
    'SELECT 1 FROM chain_checkpoints WHERE chain_id = $1 AND vault_address = $2 FOR UPDATE',
    keyParams(key),
  );
  const rows = await tx.query(
    `INSERT INTO chain_halts
       (id, chain_id, vault_address, cause, detail, block_number, shortfall_units, halted_at)
     VALUES ($3, $1, $2, $4, $5, $6, $7, $8)
     ON CONFLICT (chain_id, vault_address) WHERE resumed_at IS NULL DO NOTHING
     RETURNING 1`,
    [
      ...keyParams(key),
      halt.id,
      halt.cause,
      halt.detail.slice(0, DETAIL_MAX_CHARS),
      halt.blockNumber,
      halt.shortfallUnits?.toString() ?? null,
      now,
    ],
  );
  return rows.length === 1;
}

/** A halt's detail is a sentence or a few; findings past this are cut. */
const DETAIL_MAX_CHARS = 2000;

/**
 * Records the operator's resume of the open halt `id`: who, why, from which block after a
 * reorganisation, the shortfall accepted; and lifts it now (`resumed`) or leaves it for the
 * watcher to lift once it has read the chain again. False when `id` is no longer open.
 */
export async function recordResume(
  tx: Queryable,
  id: string,
  resume: {
    by: string;
    reason: string;
    fromBlock: bigint | null;
    acceptedShortfallUnits: bigint | null;
    resumed: boolean;
  },
  now: Date,
): Promise<HaltRecord | null> {
  const rows = await tx.query<HaltRow>(
    `UPDATE chain_halts
     SET resume_requested_at = $2, resumed_by = $3, resume_reason = $4, resume_from_block = $5,
         accepted_shortfall_units = $6, resumed_at = CASE WHEN $7 THEN $2::timestamptz END
     WHERE id = $1 AND resumed_at IS NULL
     RETURNING ${COLUMNS}`,
    [
      id,
      now,
      resume.by,
      resume.reason,
      resume.fromBlock,
      resume.acceptedShortfallUnits?.toString() ?? null,
      resume.resumed,
    ],
  );
  return rows[0] ? toHalt(rows[0]) : null;
}

/** Lifts the open halt `id` whose resume was requested (the watcher, once it read the chain). */
export async function liftHalt(tx: Queryable, id: string, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE chain_halts SET resumed_at = $2
     WHERE id = $1 AND resumed_at IS NULL AND resume_requested_at IS NOT NULL
     RETURNING 1`,
    [id, now],
  );
  return rows.length === 1;
}

/** The most halts one listing returns. */
export const HALTS_PAGE_MAX = 100;

/** The vault's halts, newest first: the audit trail of halts and resumes. */
export async function listHalts(q: Queryable, key: VaultKey, limit: number): Promise<HaltRecord[]> {
  const rows = await q.query<HaltRow>(
    `SELECT ${COLUMNS} FROM chain_halts WHERE chain_id = $1 AND vault_address = $2
     ORDER BY halted_at DESC, id DESC LIMIT $3`,
    [...keyParams(key), limit],
  );
  return rows.map(toHalt);
}

/** A sender's transaction was not recorded: the vault is halted (`halt`). Nothing was written. */
export class SendingHalted extends Error {
  override readonly name = 'SendingHalted';
  readonly halt: HaltRecord;

  constructor(halt: HaltRecord) {
    super(`the vault's senders are halted (${halt.cause}): ${halt.detail}`);
    this.halt = halt;
  }
}

/**
 * A sender's transaction was not recorded: the vault was last reconciled with the ledger too long
 * ago (`reconciledAt`; null: never), so nobody knows that they agree. Nothing was written.
 */
export class SendingUnreconciled extends Error {
  override readonly name = 'SendingUnreconciled';
  readonly reconciledAt: Date | null;

  constructor(reconciledAt: Date | null) {
    super(
      reconciledAt === null
        ? 'the vault was never reconciled with the ledger'
        : `the vault was last reconciled with the ledger at ${reconciledAt.toISOString()}`,
    );
    this.reconciledAt = reconciledAt;
  }
}
