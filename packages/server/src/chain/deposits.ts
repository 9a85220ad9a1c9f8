import { bytes16ToUuid } from '@coinop/contracts';
import {
  CoinopError,
  MAX_UNITS,
  decideDeposit,
  depositTransfer,
  formatHst,
  type Clock,
  type Ids,
} from '@coinop/core';
import type { Hex } from 'viem';
import { resolveAccount } from '../store/admin.js';
import {
  advanceCheckpoint,
  lockCheckpoint,
  readCheckpoint,
  type VaultKey,
} from '../store/chain-checkpoints.js';
import {
  depositKey,
  holdDeposit,
  insertDeposits,
  lockDepositsAt,
  markCredited,
  resolveAccounts,
  type DecidedDeposit,
  type DepositRecord,
} from '../store/chain-deposits.js';
import type { Db, Queryable } from '../store/db.js';
import { LedgerSumOutOfRange } from '../store/errors.js';
import { applyTransfers } from '../store/ledger.js';
import { depositTransferId } from './deposit-ids.js';
import { recordLockEnds, type LockEndEvent, type LockEndRecorded } from './lock-ends.js';
import type { ChainClock } from './lock-timeouts.js';
import { recordPlayLocks, type LocksRecorded, type PlayLockEvent } from './play-locks.js';

/**
 * Deposits read from the vault become ledger credits here: each range of blocks in one database
 * transaction that also moves the checkpoint, so a crash at any point leaves either the whole
 * range recorded and credited or none of it.
 */

/** One `Deposited(account, from, amount)` event, as read from a confirmed block. */
export interface DepositEvent {
  readonly txHash: Hex;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  readonly blockHash: Hex;
  /** The coinop account, as the contract takes it (bytes16). */
  readonly account: Hex;
  readonly from: Hex;
  readonly amount: bigint;
}

/**
 * The checkpoint is not where the range was read from: another process recorded it (or a
 * reorganisation was), so this process's reading is stale. Nothing was written.
 */
export class CheckpointMoved extends Error {
  override readonly name = 'CheckpointMoved';
}

export interface RangeRecorded {
  readonly credited: number;
  /** Plays locked on chain in the range: opened, or refused (to be refunded). */
  readonly locks: LocksRecorded;
  /** Locks that ended on chain in the range other than by coinop's own batches. */
  readonly lockEnds: readonly LockEndRecorded[];
  /** The deposits of the range held, for the log: the operator must hear of each. */
  readonly held: readonly HeldDeposit[];
  /** Deposits already recorded before (a range read twice): nothing done for them. */
  readonly alreadyRecorded: number;
}

/**
 * A range's PlayLocked events and what opening their plays needs (the chain's clock only when
 * there are some), and the ends of locks it read (docs/concepts/chain.md).
 */
export interface RangeLocks {
  readonly events: readonly PlayLockEvent[];
  readonly ends?: readonly LockEndEvent[] | undefined;
  readonly playTtlSeconds: number;
  readonly ids: Ids;
  readonly chainClock: ChainClock | null;
}

export interface HeldDeposit {
  readonly txHash: string;
  readonly logIndex: number;
  readonly accountId: string;
  readonly amountUnits: bigint;
  readonly reason: string;
}

/**
 * Records the deposits of blocks up to `to` and moves the checkpoint there, in one transaction,
 * if the checkpoint is still `from` (the block before the range) and no reorganisation was
 * recorded. Each deposit new to the table is credited to its account, or held when its account
 * does not exist or cannot take deposits, or its amount does not fit a balance.
 */
export async function recordDepositRange(
  db: Db,
  clock: Clock,
  input: {
    key: VaultKey;
    from: { blockNumber: bigint | null; blockHash: string | null };
    to: { blockNumber: bigint; blockHash: string };
    headBlock: bigint;
    events: readonly DepositEvent[];
    locks?: RangeLocks | undefined;
  },
): Promise<RangeRecorded> {
  const { key, from, to, events } = input;
  return db.transaction(async (tx) => {
    const checkpoint = await lockCheckpoint(tx, key);
    if (!checkpoint) throw new TypeError(`no checkpoint for vault ${key.vaultAddress}`);
    if (checkpoint.reorgDetectedAt !== null) {
      throw new CheckpointMoved('a reorganisation deeper than the confirmations was recorded');
    }
    if (checkpoint.blockNumber !== from.blockNumber || checkpoint.blockHash !== from.blockHash) {
      throw new CheckpointMoved(
        `the checkpoint is at block ${checkpoint.blockNumber}, not ${from.blockNumber}`,
      );
    }
    const now = clock.now();
    const accounts = await resolveAccounts(
      tx,
      events.map((e) => bytes16ToUuid(e.account)),
    );
    const decided: DecidedDeposit[] = events.map((event) => {
      const accountId = bytes16ToUuid(event.account);
      const account = accounts.get(accountId) ?? null;
      const decision = decideDeposit(event.amount, account);
      return {
        txHash: event.txHash,
        logIndex: event.logIndex,
        blockNumber: event.blockNumber,
        blockHash: event.blockHash,
        accountId,
        fromAddress: event.from,
        amountUnits: event.amount,
        transferId: depositTransferId(key.chainId, event.txHash, event.logIndex),
        creditAccountId: decision.credit ? (account?.accountId ?? null) : null,
        heldReason: decision.credit ? null : decision.reason,
      };
    });
    const inserted = await insertDeposits(tx, key, decided, now);
    const fresh = decided.filter((d) => inserted.has(depositKey(d.txHash, d.logIndex)));
    const toCredit = fresh.filter((d): d is Creditable => d.creditAccountId !== null);
    const unfit = await creditDeposits(tx, checkpoint.accountId, toCredit, now);
    for (const deposit of unfit) await holdDeposit(tx, key, deposit, 'amount_out_of_range');
    const locks = await recordRangeLocks(tx, key, checkpoint.accountId, input.locks, now);
    await advanceCheckpoint(tx, key, { ...to, headBlock: input.headBlock }, now);
    const heldOf = (d: DecidedDeposit, reason: string): HeldDeposit => ({
      txHash: d.txHash,
      logIndex: d.logIndex,
      accountId: d.accountId,
      amountUnits: d.amountUnits,
      reason,
    });
    const held = [
      ...fresh.flatMap((d) => (d.heldReason === null ? [] : [heldOf(d, d.heldReason)])),
      ...unfit.map((d) => heldOf(d, 'amount_out_of_range')),
    ];
    return {
      credited: toCredit.length - unfit.length,
      locks: locks.recorded,
      lockEnds: locks.ends,
      held,
      alreadyRecorded: decided.length - fresh.length,
    };
  });
}

type Creditable = DecidedDeposit & { readonly creditAccountId: string };

/** The range's play locks, then the ends of locks (a lock and its end may share a range). */
async function recordRangeLocks(
  tx: Queryable,
  key: VaultKey,
  vaultAccountId: string,
  locks: RangeLocks | undefined,
  now: Date,
): Promise<{ recorded: LocksRecorded; ends: LockEndRecorded[] }> {
  if (!locks) return { recorded: { opened: 0, refused: [] }, ends: [] };
  let recorded: LocksRecorded = { opened: 0, refused: [] };
  if (locks.events.length > 0) {
    if (!locks.chainClock) throw new TypeError('play locks to record without the chain clock');
    recorded = await recordPlayLocks(tx, {
      key,
      vaultAccountId,
      playTtlSeconds: locks.playTtlSeconds,
      ids: locks.ids,
      events: locks.events,
      chainClock: locks.chainClock,
      now,
    });
  }
  const ends = await recordLockEnds(tx, { vaultAccountId, events: locks.ends ?? [], now });
  return { recorded, ends };
}

/**
 * Credits the deposits as one batch; if a sum would overflow an account (HST has no cap on
 * chain), one by one, each behind a savepoint, and returns those that did not fit.
 */
async function creditDeposits(
  tx: Queryable,
  vaultAccountId: string,
  deposits: readonly Creditable[],
  now: Date,
): Promise<Creditable[]> {
  const transferOf = (d: Creditable) =>
    depositTransfer({
      id: d.transferId,
      vaultAccountId,
      accountId: d.creditAccountId,
      amountUnits: d.amountUnits,
    });
  if (deposits.length === 0) return [];
  if (await withSavepoint(tx, () => applyTransfers(tx, deposits.map(transferOf), now))) return [];
  const unfit: Creditable[] = [];
  for (const deposit of deposits) {
    if (!(await withSavepoint(tx, () => applyTransfers(tx, [transferOf(deposit)], now)))) {
      unfit.push(deposit);
    }
  }
  return unfit;
}

/** Runs `work` behind a savepoint; false, with its writes undone, if a sum went out of range. */
async function withSavepoint(tx: Queryable, work: () => Promise<unknown>): Promise<boolean> {
  await tx.query('SAVEPOINT deposit_credit');
  try {
    await work();
    await tx.query('RELEASE SAVEPOINT deposit_credit');
    return true;
  } catch (error) {
    if (!(error instanceof LedgerSumOutOfRange)) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT deposit_credit');
    return false;
  }
}

/**
 * The operator's way out for a held deposit: credits it to `accountRef` (an account id, or a
 * player's or developer's id) with the transfer id the deposit always had, so it can be credited
 * only once. Crediting again to the same account answers the same; to another is a conflict.
 */
export async function creditHeldDeposit(
  db: Db,
  clock: Clock,
  input: {
    txHash: string;
    logIndex: number;
    chainId?: number | undefined;
    accountRef: string;
  },
): Promise<DepositRecord> {
  const { txHash, logIndex } = input;
  const where = `deposit ${txHash}:${logIndex}`;
  return db.transaction(async (tx) => {
    const found = (await lockDepositsAt(tx, txHash, logIndex)).filter(
      (d) => input.chainId === undefined || d.chainId === input.chainId,
    );
    const deposit = found[0];
    if (deposit === undefined) {
      throw new CoinopError('deposit_not_found', `no ${where} was read from the vault`, {
        details: { txHash, logIndex },
      });
    }
    if (found.length > 1) {
      throw new CoinopError(
        'validation_failed',
        `${where} was read on chains ${found.map((d) => d.chainId).join(' and ')}: give chainId`,
        { details: { field: 'chainId' } },
      );
    }
    const target = await resolveAccount(tx, input.accountRef);
    if (!target) {
      throw new CoinopError('account_not_found', `account ${input.accountRef} does not exist`, {
        details: { accountId: input.accountRef },
      });
    }
    if (deposit.status === 'credited') {
      if (deposit.creditedAccountId === target.accountId) return deposit;
      throw new CoinopError(
        'deposit_already_credited',
        `${where} was already credited to account ${deposit.creditedAccountId}`,
        { details: { txHash, logIndex, accountId: deposit.creditedAccountId } },
      );
    }
    const decision = decideDeposit(deposit.amountUnits, target);
    if (!decision.credit && decision.reason === 'amount_out_of_range') throw unfit(where, deposit);
    if (!decision.credit) {
      throw new CoinopError(
        'validation_failed',
        `account ${input.accountRef} is the ${target.kind} account; a deposit goes to a player ` +
          'or a developer',
        { details: { field: 'accountId' } },
      );
    }
    const checkpoint = await readCheckpoint(tx, deposit);
    if (!checkpoint) throw new TypeError(`${where} has no checkpoint`);
    const now = clock.now();
    try {
      await applyTransfers(
        tx,
        [
          depositTransfer({
            id: deposit.transferId,
            vaultAccountId: checkpoint.accountId,
            accountId: target.accountId,
            amountUnits: deposit.amountUnits,
          }),
        ],
        now,
      );
    } catch (error) {
      if (error instanceof LedgerSumOutOfRange) throw unfit(where, deposit, error);
      throw error;
    }
    await markCredited(tx, deposit, target.accountId, now);
    return {
      ...deposit,
      status: 'credited',
      creditedAccountId: target.accountId,
      creditedAt: now,
    };
  });
}

function unfit(where: string, deposit: DepositRecord, cause?: unknown): CoinopError {
  const why =
    deposit.amountUnits > MAX_UNITS || deposit.amountUnits <= 0n
      ? `is not an amount a balance holds (1 unit to ${formatHst(MAX_UNITS)} HST)`
      : 'would take an account past what a balance holds';
  return new CoinopError(
    'invalid_amount',
    `${where} of ${deposit.amountUnits} units ${why}: it cannot be credited`,
    { details: { field: 'amount' }, cause },
  );
}
