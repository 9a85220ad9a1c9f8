import { arcadeVaultAbi } from '@coinop/contracts';
import { CoinopError, decideResume, type Clock } from '@coinop/core';
import type { PublicClient } from 'viem';
import type { ChainConfig } from '../config.js';
import {
  checkpointsOfVault,
  lockCheckpoint,
  recordReconciliation,
  rewindCheckpoint,
  type Checkpoint,
} from '../store/chain-checkpoints.js';
import { openHaltOf, recordResume, type HaltRecord } from '../store/chain-halts.js';
import { forgetUnsolicitedAbove } from '../store/chain-surplus.js';
import type { Db, Queryable } from '../store/db.js';
import { haltToWire, type HaltWire } from './halts.js';
import { reconcileAtCheckpoint, type ChainReconciliationWire } from './reconciliation.js';
import { describeChainError } from './rpc.js';

/**
 * `coinop admin chain resume` (docs/operating/chain.md#resuming-after-a-halt): the operator lets
 * HST leave the vault again after a halt, once it is safe, and says who they are and why.
 *
 * - After a reorganisation deeper than the confirmations, the operator names the block to read
 *   again from (`fromBlock`): every block the watcher recorded below it must still be on the
 *   chain. The checkpoint moves back there at once, but the senders stay halted until the
 *   watcher has read the chain again up to its confirmations and the vault reconciles: a deposit
 *   credited from a lost block shows then, as a shortfall.
 * - Otherwise the vault is reconciled now, and the senders resume at once if it holds at least
 *   what the ledger owes, or a shortfall the operator accepts to the unit (covered elsewhere).
 */

export interface ResumeInput {
  /** Who resumes, as they name themselves (the admin token names nobody). */
  readonly by: string;
  readonly reason: string;
  /** After a reorganisation: the first block to read again. */
  readonly fromBlock: bigint | null;
  readonly acceptShortfallUnits: bigint | null;
}

export interface ResumeWire {
  /** resumed: HST leaves again now; resuming: once the watcher has read the chain again. */
  state: 'resumed' | 'resuming';
  halt: HaltWire;
  /** The reconciliation the resume was decided on; null while resuming. */
  reconciliation: ChainReconciliationWire | null;
}

export async function resumeVault(
  db: Db,
  clock: Clock,
  chain: ChainConfig,
  client: PublicClient,
  input: ResumeInput,
): Promise<ResumeWire> {
  const checkpoint = (await checkpointsOfVault(db, chain.vaultAddress))[0];
  if (!checkpoint) {
    throw new CoinopError('chain_not_halted', `vault ${chain.vaultAddress} was never read`);
  }
  const halt = await openHaltOf(db, checkpoint);
  if (!halt) {
    throw new CoinopError(
      'chain_not_halted',
      `the senders of vault ${chain.vaultAddress} are not halted: nothing to resume`,
    );
  }
  await requireChainAsRecorded(chain, client, checkpoint);
  if (checkpoint.reorgDetectedAt !== null) {
    return rewind(db, clock, client, { checkpoint, halt, input });
  }
  if (input.fromBlock !== null) {
    throw new CoinopError(
      'validation_failed',
      `fromBlock moves the watcher back after a reorganisation; this halt is a ${halt.cause} ` +
        'and the chain still has the blocks the watcher recorded: resume without it',
      { details: { field: 'fromBlock' } },
    );
  }
  const reconciliation = await reconcileAtCheckpoint(db, chain, client).catch(notReady(chain));
  const at = reconciliation.checkpoint.blockNumber ?? checkpoint.startBlock;
  if (!reconciliation.onChain) {
    throw new CoinopError(
      'block_not_on_chain',
      `the chain no longer has block ${at} as the watcher recorded it: it halts on the ` +
        'reorganisation at its next round; then resume with fromBlock',
      { details: { blockNumber: Number(at) } },
    );
  }
  const accepted = decideResume({
    shortfallUnits: reconciliation.result.shortfallUnits,
    blockNumber: at,
    acceptShortfallUnits: input.acceptShortfallUnits,
  });
  const resumed = await db.transaction(async (tx) => {
    await lockCheckpoint(tx, checkpoint);
    const resumedHalt = await recordResume(
      tx,
      halt.id,
      { ...input, acceptedShortfallUnits: accepted === 0n ? null : accepted, resumed: true },
      clock.now(),
    );
    if (!resumedHalt) throw resumedMeanwhile(chain);
    await recordReconciliation(
      tx,
      checkpoint,
      {
        blockNumber: at,
        unexplainedUnits: reconciliation.result.unexplainedUnits,
        acceptedShortfallUnits: accepted,
      },
      clock.now(),
    );
    return resumedHalt;
  });
  return { state: 'resumed', halt: haltToWire(resumed), reconciliation: reconciliation.wire };
}

/** Refuses while the RPC answers another chain, or the vault another token, than recorded. */
async function requireChainAsRecorded(
  chain: ChainConfig,
  client: PublicClient,
  checkpoint: Checkpoint,
): Promise<void> {
  const ask = notReady(chain);
  const chainId = await client.getChainId().catch(ask);
  const mismatch = (message: string) =>
    new CoinopError('chain_mismatch', message, {
      details: { chainId, recordedChainId: checkpoint.chainId },
    });
  if (chainId !== checkpoint.chainId) {
    throw mismatch(
      `the RPC answers chain ${chainId}, not chain ${checkpoint.chainId} the vault is watched on: ` +
        'point --chain-rpc-url at a node of that chain, then resume',
    );
  }
  const token = await client
    .readContract({ address: chain.vaultAddress, abi: arcadeVaultAbi, functionName: 'token' })
    .catch(ask);
  if (token.toLowerCase() !== checkpoint.tokenAddress.toLowerCase()) {
    throw mismatch(
      `the vault answers token ${token}, not ${checkpoint.tokenAddress} as recorded: the RPC ` +
        'serves another chain or a fork; point --chain-rpc-url at the right node, then resume',
    );
  }
}

/**
 * After a reorganisation: validates `fromBlock` against the chain and moves the checkpoint back
 * to the block before it, in one transaction with the operator's resume; the watcher lifts the
 * halt once it has read the chain again and the vault reconciles.
 */
async function rewind(
  db: Db,
  clock: Clock,
  client: PublicClient,
  ctx: { checkpoint: Checkpoint; halt: HaltRecord; input: ResumeInput },
): Promise<ResumeWire> {
  const { checkpoint, halt, input } = ctx;
  const recorded = checkpoint.blockNumber;
  const fromBlock = input.fromBlock;
  if (fromBlock === null || recorded === null) {
    throw new CoinopError(
      'validation_failed',
      `the chain no longer has block ${recorded} as the watcher recorded it (a reorganisation ` +
        'deeper than the confirmations): give fromBlock, the first block to read again, at or ' +
        'below the fork (docs/operating/chain.md#resuming-after-a-halt)',
      { details: { field: 'fromBlock' } },
    );
  }
  if (fromBlock < checkpoint.startBlock || fromBlock > recorded) {
    throw new CoinopError(
      'validation_failed',
      `fromBlock must be between the vault's start block ${checkpoint.startBlock} and the ` +
        `block the chain replaced, ${recorded}; got ${fromBlock}`,
      { details: { field: 'fromBlock' } },
    );
  }
  const keep = fromBlock - 1n;
  const below = await highestRecordedBlock(db, checkpoint, keep);
  if (below) {
    const onChain = await client.getBlock({ blockNumber: below.blockNumber });
    if (onChain.hash !== below.blockHash) {
      throw new CoinopError(
        'block_not_on_chain',
        `block ${below.blockNumber} was recorded with hash ${below.blockHash} (${below.what}) ` +
          `and the chain has ${onChain.hash} there now: the fork is below it; resume from ` +
          `block ${below.blockNumber} or lower`,
        { details: { blockNumber: Number(below.blockNumber), recordedHash: below.blockHash } },
      );
    }
  }
  const to =
    keep < checkpoint.startBlock
      ? null
      : { blockNumber: keep, blockHash: (await client.getBlock({ blockNumber: keep })).hash };
  const resumed = await db.transaction(async (tx) => {
    const locked = await lockCheckpoint(tx, checkpoint);
    if (!locked || locked.reorgDetectedAt === null || locked.blockNumber !== recorded) {
      throw resumedMeanwhile({ vaultAddress: checkpoint.vaultAddress });
    }
    await rewindCheckpoint(tx, checkpoint, to, clock.now());
    await forgetUnsolicitedAbove(tx, checkpoint, to?.blockNumber ?? null);
    const accepted = input.acceptShortfallUnits;
    const resuming = await recordResume(
      tx,
      halt.id,
      { ...input, acceptedShortfallUnits: accepted === 0n ? null : accepted, resumed: false },
      clock.now(),
    );
    if (!resuming) throw resumedMeanwhile({ vaultAddress: checkpoint.vaultAddress });
    return resuming;
  });
  return { state: 'resuming', halt: haltToWire(resumed), reconciliation: null };
}

/** The highest block at or below `at` where the watcher recorded a deposit or a surplus. */
async function highestRecordedBlock(
  q: Queryable,
  key: Checkpoint,
  at: bigint,
): Promise<{ blockNumber: bigint; blockHash: string; what: string } | null> {
  const [row] = await q.query<{ block_number: string; block_hash: string; what: string }>(
    `SELECT block_number::text, block_hash, what FROM (
       SELECT block_number, block_hash, 'deposit ' || tx_hash || ':' || log_index AS what
       FROM chain_deposits WHERE chain_id = $1 AND vault_address = $2 AND block_number <= $3
       UNION ALL
       SELECT block_number, block_hash, 'surplus ' || tx_hash || ':' || log_index
       FROM chain_surplus WHERE chain_id = $1 AND vault_address = $2 AND block_number <= $3
     ) recorded ORDER BY block_number DESC LIMIT 1`,
    [key.chainId, key.vaultAddress.toLowerCase(), at],
  );
  return row
    ? { blockNumber: BigInt(row.block_number), blockHash: row.block_hash, what: row.what }
    : null;
}

function resumedMeanwhile(chain: { vaultAddress: string }): CoinopError {
  return new CoinopError(
    'chain_not_halted',
    `the halt of vault ${chain.vaultAddress} changed while resuming (another operator resumed ` +
      'it, or the watcher halted again): read coinop admin chain status and try again',
  );
}

/** A failed read of the chain as the 503 the admin API answers for it. */
const notReady =
  (chain: ChainConfig) =>
  (error: unknown): never => {
    if (error instanceof CoinopError) throw error;
    throw new CoinopError(
      'chain_not_ready',
      `the chain did not answer: ${describeChainError(error, chain.rpcUrl)}`,
      { cause: error },
    );
  };
