import { formatHst } from '@coinop/core';
import { checkpointsOfVault } from '../store/chain-checkpoints.js';
import {
  HALTS_PAGE_MAX,
  HaltCauses,
  listHalts,
  SendingHalted,
  SendingUnreconciled,
  type HaltRecord,
} from '../store/chain-halts.js';
import type { Queryable } from '../store/db.js';
import type { ChainConfig } from '../config-chain.js';

/** Why the senders halt: reorg, chain_mismatch, shortfall (for the admin API's schemas). */
export { HaltCauses };

/**
 * Halts of the vault's senders as people read them (docs/concepts/chain.md#halts): why queued
 * withdrawals and plays wait, and the halt as the admin API shows it.
 */

/**
 * How old the vault's last reconciliation may be while HST leaves it: three of the watcher's
 * reconciliations (or of its rounds, if those are rarer), and never under 30 s, so one failed or
 * slow round does not stop the senders, and a watcher failing for minutes does.
 */
export function reconciliationMaxAgeMs(
  chain: Pick<ChainConfig, 'reconcileIntervalMs' | 'pollIntervalMs'>,
): number {
  return Math.max(30_000, 3 * Math.max(chain.reconcileIntervalMs, chain.pollIntervalMs));
}

/** Why `what` waits while the vault's last reconciliation is too old (`reconciliationStale`). */
export function unreconciledWaiting(reconciledAt: Date | null, what: string): string {
  if (reconciledAt === null) {
    return (
      `the vault has not been reconciled with the ledger yet: ${what} wait for the watcher's ` +
      'first reconciliation'
    );
  }
  return (
    `the vault was last reconciled with the ledger at ${reconciledAt.toISOString()}: ${what} ` +
    'wait until the watcher reconciles it again (it is failing or catching up: see its state)'
  );
}

/**
 * Why `what` waits when recording its transaction was refused (`insertOperatorBatch`: the vault
 * halted, or its reconciliation too old); null for any other error, which the caller throws.
 */
export function refusedWaiting(error: unknown, what: string): string | null {
  if (error instanceof SendingHalted) return haltWaiting(error.halt, what);
  if (error instanceof SendingUnreconciled) return unreconciledWaiting(error.reconciledAt, what);
  return null;
}

/** Why `what` waits while the vault is halted, for `withdrawals.waiting` and the queue's notes. */
export function haltWaiting(halt: HaltRecord, what: string): string {
  if (halt.resumeRequestedAt !== null) {
    return (
      `the vault is halted (${halt.cause}) and resuming: ${what} wait until the watcher has ` +
      'read the chain again up to its confirmations and the vault reconciles'
    );
  }
  return (
    `the vault is halted (${halt.cause}: ${halt.detail}): ${what} wait until an operator ` +
    'resumes (coinop admin chain resume)'
  );
}

export interface HaltWire {
  id: string;
  cause: HaltRecord['cause'];
  detail: string;
  blockNumber: number | null;
  shortfall: string | null;
  haltedAt: string;
  resume: {
    requestedAt: string;
    by: string;
    reason: string;
    fromBlock: number | null;
    acceptedShortfall: string | null;
  } | null;
  resumedAt: string | null;
}

export function haltToWire(halt: HaltRecord): HaltWire {
  const number = (v: bigint | null) => (v === null ? null : Number(v));
  return {
    id: halt.id,
    cause: halt.cause,
    detail: halt.detail,
    blockNumber: number(halt.blockNumber),
    shortfall: halt.shortfallUnits === null ? null : formatHst(halt.shortfallUnits),
    haltedAt: halt.haltedAt.toISOString(),
    resume:
      halt.resumeRequestedAt === null
        ? null
        : {
            requestedAt: halt.resumeRequestedAt.toISOString(),
            by: halt.resumedBy ?? '',
            reason: halt.resumeReason ?? '',
            fromBlock: number(halt.resumeFromBlock),
            acceptedShortfall:
              halt.acceptedShortfallUnits === null ? null : formatHst(halt.acceptedShortfallUnits),
          },
    resumedAt: halt.resumedAt?.toISOString() ?? null,
  };
}

/** The vault's halts, newest first (the audit trail of halts and resumes); none before it is read. */
export async function haltsOfVault(
  db: Queryable,
  vaultAddress: string,
  limit: number,
): Promise<HaltWire[]> {
  const checkpoint = (await checkpointsOfVault(db, vaultAddress))[0];
  if (!checkpoint) return [];
  return (await listHalts(db, checkpoint, Math.min(limit, HALTS_PAGE_MAX))).map(haltToWire);
}
