import { formatHst } from '@coinop/core';
import { getAddress } from 'viem';
import type { ChainConfig } from '../config.js';
import { checkpointsOfVault, readCheckpoint, type Checkpoint } from '../store/chain-checkpoints.js';
import { heldTotals, type DepositRecord } from '../store/chain-deposits.js';
import { PlayLockStates, playLockTotals, type PlayLockState } from '../store/chain-play-locks.js';
import type { Queryable } from '../store/db.js';
import { findAccount } from '../store/ledger.js';
import { redactRpcUrl } from './rpc.js';
import type { DepositWatcher } from './watcher.js';
import { withdrawalTotals } from '../store/chain-withdrawals.js';
import type { WithdrawalSender } from './withdrawals.js';
import { openHaltOf } from '../store/chain-halts.js';
import { surplusTotals } from '../store/chain-surplus.js';
import { haltToWire, type HaltWire } from './halts.js';

/**
 * What `GET /admin/chain` and `coinop admin chain status` report. Read from the database, where
 * the process that reads the chain writes what it saw, so every API process answers the same;
 * this process's own watcher adds a failure it had before the database knew the vault.
 */

/**
 * `running`; `starting` before the chain first answered; `failing` while it does not; `halted`
 * while the senders are halted (a reorganisation, another chain, a shortfall: see `halt`).
 */
export type WatcherHealth = 'starting' | 'running' | 'failing' | 'halted';

export interface ChainStatusWire {
  enabled: boolean;
  rpcUrl?: string;
  chainId?: number | null;
  vaultAddress?: string;
  tokenAddress?: string | null;
  vaultAccountId?: string | null;
  confirmations?: number;
  startBlock?: number;
  state?: WatcherHealth;
  checkpointBlock?: number | null;
  headBlock?: number | null;
  headSeenAt?: string | null;
  lagBlocks?: number | null;
  reorg?: {
    detectedAt: string;
    blockNumber: number | null;
    recordedHash: string | null;
    chainHash: string;
  } | null;
  lastError?: { message: string; at: string } | null;
  /** Why no HST leaves the vault, while its senders are halted; null otherwise. */
  halt?: HaltWire | null;
  /** The watcher's last reconciliation of the vault with the ledger. */
  reconciliation?: {
    at: string;
    blockNumber: number;
    unexplained: string;
    acceptedShortfall: string;
  } | null;
  /** HST that reached the vault without a deposit, by what the operator did with it. */
  surplus?: Record<
    'unsolicited' | 'credited' | 'swept' | 'covered',
    { count: number; amount: string }
  >;
  /** HST the vault holds for ledger accounts: deposits credited less withdrawals paid. */
  vaultHeld?: string;
  held?: { count: number; amount: string };
  withdrawals?: WithdrawalsStatusWire;
  /** Play ids requested or locked on chain, by state, with the HST their locks hold. */
  playLocks?: Record<PlayLockState, { count: number; amount: string }>;
}

export interface WithdrawalsStatusWire {
  /** The operator key's address; null without --chain-operator-key-file. */
  operatorAddress: string | null;
  /** Why queued withdrawals are not being sent, if they are not; null when they are. */
  waiting: string | null;
  lastError: { message: string; at: string } | null;
  queued: { count: number; amount: string };
  sent: { count: number; amount: string };
  paid: { count: number; amount: string };
  failed: { count: number; amount: string };
}

export async function chainStatus(
  q: Queryable,
  chain: ChainConfig | null,
  watcher: DepositWatcher | null,
  sender: WithdrawalSender | null = null,
): Promise<ChainStatusWire> {
  if (chain === null) return { enabled: false };
  const checkpoint = watcher?.key
    ? await readCheckpoint(q, watcher.key)
    : ((await checkpointsOfVault(q, chain.vaultAddress))[0] ?? null);
  const own = watcher?.state.lastError ?? null;
  const stored =
    checkpoint?.lastError && checkpoint.lastErrorAt
      ? { message: checkpoint.lastError, at: checkpoint.lastErrorAt }
      : null;
  const lastError = own && (!stored || own.at > stored.at) ? own : stored;
  const base = {
    enabled: true,
    rpcUrl: redactRpcUrl(chain.rpcUrl),
    vaultAddress: chain.vaultAddress,
    confirmations: chain.confirmations,
    lastError: lastError && { message: lastError.message, at: lastError.at.toISOString() },
  };
  if (!checkpoint) {
    return {
      ...base,
      chainId: watcher?.state.chainId ?? null,
      tokenAddress: watcher?.state.tokenAddress ?? null,
      vaultAccountId: null,
      startBlock: Number(chain.startBlock),
      state: lastError ? 'failing' : 'starting',
      checkpointBlock: null,
      headBlock: null,
      headSeenAt: null,
      lagBlocks: null,
      reorg: null,
      halt: null,
      reconciliation: null,
      vaultHeld: '0',
      held: { count: 0, amount: '0' },
    };
  }
  const [vaultAccount, held, totals, locks, halt, surplus] = await Promise.all([
    findAccount(q, checkpoint.accountId),
    heldTotals(q, checkpoint),
    withdrawalTotals(q, checkpoint),
    playLockTotals(q, checkpoint),
    openHaltOf(q, checkpoint),
    surplusTotals(q, checkpoint),
  ]);
  return {
    ...base,
    chainId: checkpoint.chainId,
    tokenAddress: getAddress(checkpoint.tokenAddress),
    vaultAccountId: checkpoint.accountId,
    startBlock: Number(checkpoint.startBlock),
    state: halt ? 'halted' : health(checkpoint, lastError !== null),
    checkpointBlock: numberOrNull(checkpoint.blockNumber),
    headBlock: numberOrNull(checkpoint.headBlock),
    headSeenAt: checkpoint.headSeenAt?.toISOString() ?? null,
    lagBlocks:
      checkpoint.headBlock === null
        ? null
        : Number(checkpoint.headBlock - (checkpoint.blockNumber ?? checkpoint.startBlock - 1n)),
    reorg: checkpoint.reorgDetectedAt && {
      detectedAt: checkpoint.reorgDetectedAt.toISOString(),
      blockNumber: numberOrNull(checkpoint.blockNumber),
      recordedHash: checkpoint.blockHash,
      chainHash: checkpoint.reorgFoundHash ?? '',
    },
    halt: halt && haltToWire(halt),
    reconciliation: reconciliationToWire(checkpoint),
    surplus: {
      unsolicited: total(surplus.unsolicited),
      credited: total(surplus.credited),
      swept: total(surplus.swept),
      covered: total(surplus.covered),
    },
    vaultHeld: formatHst(
      vaultAccount ? vaultAccount.debitsPosted - vaultAccount.creditsPosted : 0n,
    ),
    held: { count: held.count, amount: formatHst(held.units) },
    withdrawals: withdrawalsToWire(sender, totals),
    playLocks: Object.fromEntries(
      PlayLockStates.map((state) => [state, total(locks[state] ?? { count: 0, units: 0n })]),
    ) as Record<PlayLockState, { count: number; amount: string }>,
  };
}

/** A count and its HST, as the status shows every total. */
const total = (t: { count: number; units: bigint }) => ({
  count: t.count,
  amount: formatHst(t.units),
});

/** The watcher's last reconciliation as recorded on the checkpoint; null before the first. */
function reconciliationToWire(checkpoint: Checkpoint): ChainStatusWire['reconciliation'] {
  return checkpoint.reconciledAt && checkpoint.reconciledBlock !== null
    ? {
        at: checkpoint.reconciledAt.toISOString(),
        blockNumber: Number(checkpoint.reconciledBlock),
        unexplained: formatHst(checkpoint.unexplainedUnits ?? 0n),
        acceptedShortfall: formatHst(checkpoint.acceptedShortfallUnits),
      }
    : null;
}

/** The withdrawal queue by status, with this process's sender's state when it runs one. */
function withdrawalsToWire(
  sender: WithdrawalSender | null,
  totals: Awaited<ReturnType<typeof withdrawalTotals>>,
): WithdrawalsStatusWire {
  const senderState = sender?.state;
  return {
    operatorAddress: senderState?.operatorAddress ?? null,
    // null is a sender with a key and nothing to wait for; no sender at all has no key.
    waiting: senderState
      ? senderState.waiting
      : 'no operator key: withdrawals are queued, not sent',
    lastError: senderState?.lastError
      ? {
          message: senderState.lastError.message,
          at: senderState.lastError.at.toISOString(),
        }
      : null,
    queued: total(totals.queued),
    sent: total(totals.sent),
    paid: total(totals.paid),
    failed: total(totals.failed),
  };
}

function health(checkpoint: Checkpoint, failing: boolean): WatcherHealth {
  if (checkpoint.reorgDetectedAt !== null) return 'halted';
  if (failing) return 'failing';
  return checkpoint.headBlock === null ? 'starting' : 'running';
}

const numberOrNull = (value: bigint | null) => (value === null ? null : Number(value));

/** A deposit as the admin API shows it: amounts as exact HST strings (they may pass 2^53). */
export function depositToWire(deposit: DepositRecord) {
  return {
    chainId: deposit.chainId,
    vaultAddress: getAddress(deposit.vaultAddress),
    txHash: deposit.txHash,
    logIndex: deposit.logIndex,
    blockNumber: Number(deposit.blockNumber),
    blockHash: deposit.blockHash,
    accountId: deposit.accountId,
    from: getAddress(deposit.fromAddress),
    amount: formatHst(deposit.amountUnits),
    status: deposit.status,
    heldReason: deposit.heldReason,
    transferId: deposit.transferId,
    creditedAccountId: deposit.creditedAccountId,
    seenAt: deposit.seenAt.toISOString(),
    creditedAt: deposit.creditedAt?.toISOString() ?? null,
  };
}

/** The watcher's lag and the withdrawal queue, for the metrics (`coinop_chain_*`). */
export async function chainProgress(
  q: Queryable,
  chain: ChainConfig,
  watcher: DepositWatcher | null,
): Promise<{
  lagBlocks: number | null;
  withdrawalsQueued: number;
  withdrawalsSent: number;
  halted: boolean | null;
  headSeenAt: Date | null;
}> {
  const checkpoint = watcher?.key
    ? await readCheckpoint(q, watcher.key)
    : ((await checkpointsOfVault(q, chain.vaultAddress))[0] ?? null);
  if (!checkpoint) {
    return {
      lagBlocks: null,
      withdrawalsQueued: 0,
      withdrawalsSent: 0,
      halted: null,
      headSeenAt: null,
    };
  }
  const totals = await withdrawalTotals(q, checkpoint);
  const halt = await openHaltOf(q, checkpoint);
  return {
    lagBlocks:
      checkpoint.headBlock === null
        ? null
        : Number(checkpoint.headBlock - (checkpoint.blockNumber ?? checkpoint.startBlock - 1n)),
    withdrawalsQueued: totals.queued.count,
    withdrawalsSent: totals.sent.count,
    halted: halt !== null,
    headSeenAt: checkpoint.headSeenAt,
  };
}
