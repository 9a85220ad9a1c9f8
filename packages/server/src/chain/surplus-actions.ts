import {
  CoinopError,
  MAX_UNITS,
  checkWithdrawalAmount,
  depositTransfer,
  formatHst,
  withdrawalReserveTransfer,
  type AccountKind,
  type Clock,
  type Ids,
} from '@coinop/core';
import { getAddress, type PublicClient } from 'viem';
import type { ChainConfig } from '../config.js';
import { resolveAccount } from '../store/admin.js';
import { readCheckpoint } from '../store/chain-checkpoints.js';
import {
  listSurplus,
  lockSurplusAt,
  settleSurplus,
  SURPLUS_PAGE_MAX,
  SurplusStatuses,
  type SurplusRecord,
  type SurplusStatus,
} from '../store/chain-surplus.js';
import { findWithdrawal, insertWithdrawal } from '../store/chain-withdrawals.js';
import type { Db, Queryable, Transaction } from '../store/db.js';
import { LedgerSumOutOfRange } from '../store/errors.js';
import { applyTransfers } from '../store/ledger.js';
import { reconcileAtCheckpoint } from './reconciliation.js';
import { describeChainError } from './rpc.js';
import { parseWithdrawalAddress } from './withdrawal-requests.js';

/**
 * What an operator does with unsolicited surplus (docs/operating/chain.md#surplus), each once per
 * surplus (its row is locked, and asking again the same way answers the same):
 *
 * - **credit** it to an account (a player who sent HST with a plain transfer, or the arcade):
 *   a posted transfer from the vault's account, with an id derived from the surplus, as a deposit;
 * - **sweep** it out to an address: the vault pays only by withdrawal ids the operator signs, so
 *   it is credited to the arcade's account and a withdrawal of it is queued from there, in one
 *   database transaction, and the sender pays it like any other;
 * - **cover** a shortfall with it: it backs HST the ledger already owes (a deposit credited from a
 *   block since lost, minted HST), so nothing moves in the ledger and it stops counting as surplus.
 */

/** What became of a surplus: unsolicited, credited, swept, covered (for the admin API's schemas). */
export { SurplusStatuses };

/** Where a surplus is: its Transfer event, and the chain if it was read on two. */
export interface SurplusRef {
  readonly txHash: string;
  readonly logIndex: number;
  readonly chainId?: number | undefined;
}

/** The accounts a surplus may be credited to: whoever may hold HST the vault backs. */
const CREDIT_ACCOUNT_KINDS: readonly AccountKind[] = ['player', 'developer', 'arcade'];

export async function creditSurplus(
  db: Db,
  clock: Clock,
  input: SurplusRef & { accountRef: string },
): Promise<SurplusRecord> {
  return db.transaction(async (tx) => {
    const surplus = await lockOne(tx, input);
    const target = await resolveAccount(tx, input.accountRef);
    if (!target) {
      throw new CoinopError('account_not_found', `account ${input.accountRef} does not exist`, {
        details: { accountId: input.accountRef },
      });
    }
    if (surplus.status === 'credited' && surplus.creditedAccountId === target.accountId) {
      return surplus;
    }
    requireUnsolicited(surplus, `credit it to account ${target.accountId}`);
    if (!CREDIT_ACCOUNT_KINDS.includes(target.kind)) {
      throw new CoinopError(
        'validation_failed',
        `account ${input.accountRef} is the ${target.kind} account; a surplus is credited to a ` +
          'player, a developer or the arcade',
        { details: { field: 'accountId' } },
      );
    }
    await credit(tx, surplus, target.accountId, clock.now());
    return settleSurplus(
      tx,
      surplus,
      { status: 'credited', accountId: target.accountId },
      clock.now(),
    );
  });
}

export async function sweepSurplus(
  deps: { db: Db; clock: Clock; ids: Ids; maxWithdrawalUnits: () => Promise<bigint | null> },
  input: SurplusRef & { to: unknown; arcadeAccountId: string },
): Promise<SurplusRecord> {
  const { db, clock, ids } = deps;
  const to = parseWithdrawalAddress(input.to);
  const maxWithdrawal = await deps.maxWithdrawalUnits();
  return db.transaction(async (tx) => {
    const surplus = await lockOne(tx, input);
    if (surplus.status === 'swept' && surplus.withdrawalId !== null) {
      const withdrawal = await findWithdrawal(tx, surplus.withdrawalId);
      if (withdrawal?.toAddress === to.toLowerCase()) return surplus;
    }
    requireUnsolicited(surplus, `sweep it to ${to}`);
    if (surplus.amountUnits > MAX_UNITS) throw unfit(surplus);
    checkWithdrawalAmount(surplus.amountUnits, maxWithdrawal);
    const checkpoint = await readCheckpoint(tx, surplus);
    if (!checkpoint) throw new TypeError(`surplus ${describe(surplus)} has no checkpoint`);
    const now = clock.now();
    await credit(tx, surplus, input.arcadeAccountId, now);
    const withdrawalId = ids.next();
    await insertWithdrawal(
      tx,
      {
        chainId: surplus.chainId,
        vaultAddress: surplus.vaultAddress,
        id: withdrawalId,
        accountId: input.arcadeAccountId,
        toAddress: to,
        amountUnits: surplus.amountUnits,
        idempotencyKey: null,
      },
      now,
    );
    await applyTransfers(
      tx,
      [
        withdrawalReserveTransfer({
          id: withdrawalId,
          accountId: input.arcadeAccountId,
          vaultAccountId: checkpoint.accountId,
          amountUnits: surplus.amountUnits,
        }),
      ],
      now,
    );
    return settleSurplus(
      tx,
      surplus,
      { status: 'swept', accountId: input.arcadeAccountId, withdrawalId },
      now,
    );
  });
}

/**
 * Marks the surplus as backing what the ledger owes. Refused when the vault would then hold more
 * than the ledger owes (the reconciliation at the watcher's checkpoint finds a smaller shortfall,
 * or none): covering is for a shortfall, the rest is credited or swept.
 */
export async function coverShortfall(
  deps: { db: Db; clock: Clock; chain: ChainConfig; client: PublicClient },
  input: SurplusRef & { note: string },
): Promise<SurplusRecord> {
  const { db, clock, chain, client } = deps;
  const found = await db.transaction((tx) => lockOne(tx, input));
  if (found.status === 'covered') return found;
  requireUnsolicited(found, 'cover a shortfall with it');
  const reconciliation = await reconcileAtCheckpoint(db, chain, client).catch((error: unknown) => {
    if (error instanceof CoinopError) throw error;
    throw new CoinopError(
      'chain_not_ready',
      `the chain did not answer: ${describeChainError(error, chain.rpcUrl)}`,
      { cause: error },
    );
  });
  if (!reconciliation.onChain) {
    throw new CoinopError(
      'block_not_on_chain',
      `the chain no longer has block ${reconciliation.checkpoint.blockNumber} as the watcher ` +
        'recorded it: resume from the reorganisation first (coinop admin chain resume ' +
        '--from-block), then cover what the vault is still short',
      { details: { blockNumber: Number(reconciliation.checkpoint.blockNumber) } },
    );
  }
  const shortfall = reconciliation.result.shortfallUnits;
  if (found.amountUnits > shortfall) {
    throw new CoinopError(
      'surplus_exceeds_shortfall',
      `surplus ${describe(found)} of ${formatHst(found.amountUnits)} HST is more than the ` +
        `vault's shortfall of ${formatHst(shortfall)} HST at block ` +
        `${reconciliation.checkpoint.blockNumber}: covering it would leave the vault holding ` +
        'more than the ledger owes; credit or sweep it instead',
      {
        details: { amount: formatHst(found.amountUnits), shortfall: formatHst(shortfall) },
      },
    );
  }
  return db.transaction(async (tx) => {
    const surplus = await lockOne(tx, input);
    if (surplus.status === 'covered') return surplus;
    requireUnsolicited(surplus, 'cover a shortfall with it');
    return settleSurplus(tx, surplus, { status: 'covered', note: input.note }, clock.now());
  });
}

async function lockOne(tx: Transaction, ref: SurplusRef): Promise<SurplusRecord> {
  const where = `${ref.txHash.toLowerCase()}:${ref.logIndex}`;
  const found = (await lockSurplusAt(tx, ref.txHash, ref.logIndex)).filter(
    (s) => ref.chainId === undefined || s.chainId === ref.chainId,
  );
  const surplus = found[0];
  if (surplus === undefined) {
    throw new CoinopError(
      'surplus_not_found',
      `no HST transfer to the vault ${where} was recorded as surplus`,
      { details: { txHash: ref.txHash, logIndex: ref.logIndex } },
    );
  }
  if (found.length > 1) {
    throw new CoinopError(
      'validation_failed',
      `surplus ${where} was read on chains ${found.map((s) => s.chainId).join(' and ')}: give chainId`,
      { details: { field: 'chainId' } },
    );
  }
  return surplus;
}

function requireUnsolicited(surplus: SurplusRecord, asked: string): void {
  if (surplus.status === 'unsolicited') return;
  const done =
    surplus.status === 'covered'
      ? 'used to cover a shortfall'
      : surplus.status === 'swept'
        ? `swept (withdrawal ${surplus.withdrawalId})`
        : `credited to account ${surplus.creditedAccountId}`;
  throw new CoinopError(
    'surplus_already_settled',
    `surplus ${describe(surplus)} was already ${done}: it cannot also ${asked}`,
    { details: { txHash: surplus.txHash, logIndex: surplus.logIndex, status: surplus.status } },
  );
}

/** The posted transfer that credits the surplus to `accountId`, from the vault's account. */
async function credit(
  tx: Transaction,
  surplus: SurplusRecord,
  accountId: string,
  now: Date,
): Promise<void> {
  if (surplus.amountUnits > MAX_UNITS) throw unfit(surplus);
  const checkpoint = await readCheckpoint(tx, surplus);
  if (!checkpoint) throw new TypeError(`surplus ${describe(surplus)} has no checkpoint`);
  try {
    await applyTransfers(
      tx,
      [
        depositTransfer({
          id: surplus.transferId,
          vaultAccountId: checkpoint.accountId,
          accountId,
          amountUnits: surplus.amountUnits,
        }),
      ],
      now,
    );
  } catch (error) {
    if (error instanceof LedgerSumOutOfRange) throw unfit(surplus, error);
    throw error;
  }
}

const describe = (s: { txHash: string; logIndex: number }) => `${s.txHash}:${s.logIndex}`;

function unfit(surplus: SurplusRecord, cause?: unknown): CoinopError {
  return new CoinopError(
    'invalid_amount',
    `surplus ${describe(surplus)} of ${surplus.amountUnits} units is more than a balance holds ` +
      `(${formatHst(MAX_UNITS)} HST) or would take the account past it: it cannot be credited; ` +
      'cover a shortfall with it or leave it',
    { details: { field: 'amount' }, cause },
  );
}

/** Surplus of every vault watched, newest first. */
export async function surplusOfVaults(
  q: Queryable,
  options: { status?: SurplusStatus | undefined; limit: number },
): Promise<SurplusRecord[]> {
  return listSurplus(q, { ...options, limit: Math.min(options.limit, SURPLUS_PAGE_MAX) });
}

/** A surplus as the admin API shows it: the amount as an exact HST string (a uint256). */
export function surplusToWire(surplus: SurplusRecord) {
  return {
    chainId: surplus.chainId,
    vaultAddress: getAddress(surplus.vaultAddress),
    txHash: surplus.txHash,
    logIndex: surplus.logIndex,
    blockNumber: Number(surplus.blockNumber),
    blockHash: surplus.blockHash,
    from: getAddress(surplus.fromAddress),
    amount: formatHst(surplus.amountUnits),
    status: surplus.status,
    creditedAccountId: surplus.creditedAccountId,
    withdrawalId: surplus.withdrawalId,
    note: surplus.note,
    seenAt: surplus.seenAt.toISOString(),
    settledAt: surplus.settledAt?.toISOString() ?? null,
  };
}
