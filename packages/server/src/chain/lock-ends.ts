import { bytes16ToUuid } from '@coinop/contracts';
import {
  chainSettlementReversal,
  formatHst,
  InsufficientFundsError,
  voidLockTransfer,
  type TransferRequest,
} from '@coinop/core';
import { v5 as uuidv5 } from 'uuid';
import type { Hex } from 'viem';
import {
  chainPayeesOf,
  lockPlayOfLock,
  markLockEnded,
  type LockEndEventAt,
} from '../store/chain-lock-ends.js';
import { lockPlayLocks, type PlayLockRecord } from '../store/chain-play-locks.js';
import type { Queryable } from '../store/db.js';
import { applyTransfers } from '../store/ledger.js';
import { setPlayStatus, type StoredPlay } from '../store/plays.js';
import type { WatcherLog } from './watcher-log.js';

/**
 * The vault and the ledger agree on every lock's fate (docs/concepts/chain.md, "When a lock ends
 * on chain"). A lock ends on chain by coinop's own settleBatch (the sender posts its payouts) or
 * otherwise: the player reclaims it after the vault's lock timeout, or a refund or settlement
 * coinop did not send closes it. Then the ledger is brought to that end at once: an open play is
 * voided (it takes no score), a settled play's settlement is reversed (the vault paid nobody), a
 * voided play or a lock that opened none is only marked. The watcher does it for the events it
 * reads, the sender for the plays its batches found ended; whichever comes first does it once.
 */

export type LockEnd = 'settled' | 'refunded' | 'reclaimed';

/** A PlaySettled, PlayRefunded or PlayReclaimed event, as read from a confirmed block. */
export interface LockEndEvent {
  readonly txHash: Hex;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  /** The play id, as the contract takes it (bytes16). */
  readonly playId: Hex;
  readonly end: LockEnd;
}

/** What bringing the ledger to a lock's end did. */
export type LockEndOutcome =
  /** Nothing to undo: the lock opened no play, or its play was voided already. */
  | { readonly kind: 'closed' }
  /** The open play was voided, its lock given back to the vault's account. */
  | { readonly kind: 'voided' }
  /**
   * The play had been settled in the ledger: its payees gave their shares back to the vault's
   * account, but for `unreversedUnits` a payee no longer had (the arcade's share, spent).
   */
  | { readonly kind: 'reversed'; readonly unreversedUnits: bigint };

export interface LockEndRecorded {
  readonly playId: string;
  readonly end: LockEnd;
  /** The transaction that ended the lock, when an event was read. */
  readonly txHash: string | null;
  /** Ended by a refund or settlement coinop did not send: the operator key was used elsewhere. */
  readonly foreign: boolean;
  readonly outcome: LockEndOutcome;
}

/**
 * The namespace of the ids of the transfers that bring the ledger to a lock's end (UUIDv5, RFC
 * 9562 §5.5). Fixed forever: doing it again must give the same ids, so the ledger answers
 * `exists`.
 */
const LOCK_END_NAMESPACE = '27756b4c-e8ae-4bd7-bf78-32e132eaebbb';
const lockEndId = (...parts: string[]) =>
  uuidv5(parts.map((p) => p.toLowerCase()).join(':'), LOCK_END_NAMESPACE);

/**
 * Brings the ledger to the end of a lock on chain that is not coinop's own settlement of its play,
 * in `tx`, and marks the lock ended. The lock's row must be locked by the caller and not ended
 * yet. Never fails for want of a payee's balance: what cannot be taken back is reported.
 */
export async function applyLockEnd(
  tx: Queryable,
  input: {
    playId: string;
    end: LockEnd;
    at: LockEndEventAt | null;
    vaultAccountId: string;
    now: Date;
  },
): Promise<LockEndOutcome> {
  const { playId, vaultAccountId, now } = input;
  const play = await lockPlayOfLock(tx, playId, vaultAccountId);
  let outcome: LockEndOutcome = { kind: 'closed' };
  if (play?.status === 'open') {
    const release = voidLockTransfer(play, vaultAccountId, lockEndId(playId, 'void'));
    if (release) await applyTransfers(tx, [release], now);
    await setPlayStatus(tx, playId, 'voided', now);
    outcome = { kind: 'voided' };
  } else if (play?.status === 'scored' || play?.status === 'expired') {
    outcome = await reverseSettlement(tx, play, vaultAccountId, now);
  }
  await markLockEnded(tx, playId, input.end, input.at, now);
  return outcome;
}

/**
 * Reverses a settled play's settlement: the payees whose reservations cover their share all
 * together (this cannot fail), then each other payee behind a savepoint, so one that spent its
 * share leaves the rest done and is reported.
 */
async function reverseSettlement(
  tx: Queryable,
  play: StoredPlay,
  vaultAccountId: string,
  now: Date,
): Promise<LockEndOutcome> {
  const playId = play.id;
  const reversal = chainSettlementReversal(playId, vaultAccountId, await chainPayeesOf(tx, play), {
    voidOf: (reservationId) => lockEndId(playId, reservationId, 'void'),
    reversalOf: (accountId) => lockEndId(playId, accountId, 'reversal'),
  });
  const covered: TransferRequest[] = reversal.filter((r) => r.covered).flatMap((r) => r.transfers);
  await applyTransfers(tx, covered, now);
  let unreversedUnits = 0n;
  for (const payee of reversal.filter((r) => !r.covered)) {
    await tx.query('SAVEPOINT lock_end_reversal');
    try {
      await applyTransfers(tx, payee.transfers, now);
      await tx.query('RELEASE SAVEPOINT lock_end_reversal');
    } catch (error) {
      if (!(error instanceof InsufficientFundsError)) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT lock_end_reversal');
      unreversedUnits += payee.units;
    }
  }
  return { kind: 'reversed', unreversedUnits };
}

/**
 * The watcher's part: brings the ledger to each lock end of a range, in the range's transaction,
 * after its locks were recorded (a lock and its reclaim may be in one range). An end already
 * recorded (a range read twice, or a batch of coinop's that found it) and coinop's own
 * settlement or refund, which the sender resolves, are left alone.
 */
export async function recordLockEnds(
  tx: Queryable,
  input: { vaultAccountId: string; events: readonly LockEndEvent[]; now: Date },
): Promise<LockEndRecorded[]> {
  const { events, now } = input;
  if (events.length === 0) return [];
  const playIds = events.map((e) => bytes16ToUuid(e.playId));
  const rows = await lockPlayLocks(tx, playIds);
  const recorded: LockEndRecorded[] = [];
  for (const [i, event] of events.entries()) {
    const playId = playIds[i] as string;
    const row = rows.get(playId);
    // A lock the watcher never saw locked (the vault was read from a later block) is skipped.
    if (row === undefined || !isForTheWatcher(row, event)) continue;
    const outcome = await applyLockEnd(tx, {
      playId,
      end: event.end,
      at: { txHash: event.txHash, blockNumber: event.blockNumber },
      vaultAccountId: input.vaultAccountId,
      now,
    });
    // The row's state is read once per range: a second event for the same play is not applied.
    rows.set(playId, { ...row, state: event.end });
    recorded.push({
      playId,
      end: event.end,
      txHash: event.txHash,
      foreign: event.end !== 'reclaimed',
      outcome,
    });
  }
  return recorded;
}

/**
 * Whether the watcher brings the ledger to this end: the lock has not ended yet, and the event is
 * not coinop's own settlement or refund, which the sender resolves from its batch.
 */
function isForTheWatcher(row: PlayLockRecord, event: LockEndEvent): boolean {
  if (row.state === 'open' || row.state === 'refund_due') return true;
  // Requested and never locked, or ended already (a range read twice, or a batch found it).
  if (row.state !== 'sent') return false;
  return event.end === 'reclaimed' || row.settleTxHash !== event.txHash.toLowerCase();
}

/** Tells the operator of a lock's end, at the level it calls for. */
export function logLockEnd(log: WatcherLog | null, who: string, ended: LockEndRecorded): void {
  const { level, message } = describeLockEnd(ended);
  log?.[level](`${who}: ${message}`);
}

/** What the operator reads in the log about a lock's end: the level and the line. */
export function describeLockEnd(ended: LockEndRecorded): {
  level: 'info' | 'warn' | 'error';
  message: string;
} {
  const how =
    ended.end === 'reclaimed'
      ? "its player reclaimed the lock after the vault's lock timeout"
      : `the lock was ${ended.end === 'settled' ? 'settled' : 'refunded'} on chain by a ` +
        `transaction coinop did not send${ended.txHash ? ` (${ended.txHash})` : ''}: the ` +
        'operator key is used outside this arcade';
  const { outcome } = ended;
  const what =
    outcome.kind === 'voided'
      ? 'the open play is voided and takes no score'
      : outcome.kind === 'closed'
        ? 'nothing was owed on it in the ledger'
        : 'its settlement is reversed in the ledger: its payees gave their shares back, as the ' +
          'vault paid nobody' +
          (outcome.unreversedUnits > 0n
            ? `, but for ${formatHst(outcome.unreversedUnits)} HST the arcade's account no ` +
              'longer held: the vault holds that much less than the ledger says (coinop admin ' +
              'hst audit --chain); top the vault up'
            : '');
  const level = ended.foreign
    ? 'error'
    : outcome.kind === 'reversed' && outcome.unreversedUnits > 0n
      ? 'error'
      : outcome.kind === 'reversed'
        ? 'warn'
        : 'info';
  return { level, message: `play ${ended.playId}: ${how}; ${what}` };
}
