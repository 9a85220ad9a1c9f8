import { arcadeVaultAbi, hstAbi } from '@coinop/contracts';
import {
  CoinopError,
  formatHst,
  reconcileVault,
  type ReconciliationLine,
  type Units,
  type VaultReconciliation,
} from '@coinop/core';
import { getAddress, type PublicClient } from 'viem';
import type { ChainConfig } from '../config.js';
import { checkpointsOfVault, type Checkpoint } from '../store/chain-checkpoints.js';
import {
  readVaultLedgerSnapshot,
  type AccountTotals,
  type WithdrawalToCheck,
} from '../store/chain-reconciliation.js';
import type { Db } from '../store/db.js';
import { createChainClient, describeChainError } from './rpc.js';
import { surplusNotRecorded } from './surplus.js';
import { chainPlayLines, line } from './reconciliation-lines.js';
import { paidAtBlock, type VaultAtBlock } from './vault-at-block.js';

/**
 * `coinop admin hst audit --chain` (docs/concepts/chain.md#reconciliation): the vault's HST on
 * chain against what the ledger owes, exactly, in base units, as of one block.
 *
 * The block is the watcher's checkpoint, read in the same database snapshot as the ledger: every
 * deposit at or below it is recorded (credited or held) and none above it is, so deposits not yet
 * confirmed are outside the comparison by construction. Withdrawals are settled by another loop
 * on its own view of the head, so each one that could be on either side of the block is asked of
 * the vault (`isPaid` at the block). What remains is explained line by line or reported.
 */

export interface ReconciliationLineWire {
  kind: string;
  amount: string;
  count: number | null;
  description: string;
}

export interface ChainReconciliationWire {
  chainId: number;
  vaultAddress: string;
  tokenAddress: string;
  blockNumber: number;
  blockHash: string;
  headBlock: number;
  vaultBalance: string;
  lockedOnChain: string;
  liabilities: ReconciliationLineWire[];
  liabilitiesTotal: string;
  explained: ReconciliationLineWire[];
  expected: string;
  minted: string;
  unexplained: string;
  reconciled: boolean;
  findings: string[];
}

/**
 * Reconciles the configured vault with the ledger. Throws `chain_not_ready` (503) when the
 * watcher has read no block of the vault yet, or when the chain does not answer.
 */
export async function reconcileChainVault(
  db: Db,
  chain: ChainConfig,
  client: PublicClient = createChainClient(chain),
): Promise<ChainReconciliationWire> {
  return (await reconcileAtCheckpoint(db, chain, client)).wire;
}

/** The reconciliation as the watcher and a resume decide on it: the report, and its numbers. */
export interface CheckpointReconciliation {
  readonly wire: ChainReconciliationWire;
  readonly result: VaultReconciliation;
  /** The checkpoint compared at, as read in the ledger's snapshot. */
  readonly checkpoint: Checkpoint;
  /** The chain still has the checkpoint's block (else a reorganisation deeper than the depth). */
  readonly onChain: boolean;
}

export async function reconcileAtCheckpoint(
  db: Db,
  chain: ChainConfig,
  client: PublicClient,
): Promise<CheckpointReconciliation> {
  const read = await readAtCheckpoint(db, chain, client);
  const lines = reconciliationLines(read);
  const result = reconcileVault({
    vaultBalanceUnits: read.vaultBalance,
    liabilities: lines.liabilities,
    explained: lines.explained,
    mintedUnits: lines.minted,
    coveredUnits: read.snapshot.covered.units,
  });
  const findings = checkpointFindings(read, lines.withdrawalsPending);
  const wire = reconciliationWire(read, lines, result, findings);
  const { block, checkpoint } = read;
  return { wire, result, checkpoint, onChain: block.hash === checkpoint.blockHash };
}

/**
 * Reads what the reconciliation compares, as of the watcher's checkpoint: the ledger's snapshot
 * at it, and the chain at its block (the vault's balance, its locks, which withdrawals it paid,
 * its plays, the surplus the watcher has not recorded yet).
 */
async function readAtCheckpoint(db: Db, chain: ChainConfig, client: PublicClient) {
  const ask = <T>(read: () => Promise<T>): Promise<T> =>
    read().catch((error: unknown) => {
      throw new CoinopError(
        'chain_not_ready',
        `the chain did not answer: ${describeChainError(error, chain.rpcUrl)}`,
        { cause: error },
      );
    });
  const chainId = await ask(() => client.getChainId());
  const known = (await checkpointsOfVault(db, chain.vaultAddress)).find(
    (c) => c.chainId === chainId,
  );
  const snapshot = known ? await readVaultLedgerSnapshot(db, known) : null;
  const checkpoint = snapshot?.checkpoint;
  if (!snapshot || !checkpoint || checkpoint.blockNumber === null) {
    throw new CoinopError(
      'chain_not_ready',
      `the chain watcher has read no block of vault ${chain.vaultAddress} on chain ${chainId} ` +
        'yet: there is nothing to reconcile at; try again once coinop admin chain status shows ' +
        'a checkpointBlock',
    );
  }
  const blockNumber = checkpoint.blockNumber;
  const vaultAddress = getAddress(checkpoint.vaultAddress);
  const tokenAddress = getAddress(checkpoint.tokenAddress);
  const vault: VaultAtBlock = { client, vaultAddress, blockNumber };

  const [block, headBlock, vaultBalance, lockedOnChain, sentPaid, postedUnpaid] = await ask(() =>
    Promise.all([
      client.getBlock({ blockNumber }),
      client.getBlockNumber({ cacheTime: 0 }),
      client.readContract({
        address: tokenAddress,
        abi: hstAbi,
        functionName: 'balanceOf',
        args: [vaultAddress],
        blockNumber,
      }),
      client.readContract({
        address: vaultAddress,
        abi: arcadeVaultAbi,
        functionName: 'lockedTotal',
        blockNumber,
      }),
      paidAtBlock(vault, snapshot.sent, true),
      paidAtBlock(vault, snapshot.paidMaybeAfter, false),
    ]),
  );
  const plays = await ask(() => chainPlayLines(snapshot, vault));
  const notRecorded = await ask(() =>
    surplusNotRecorded(db, client, checkpoint, chain.logRangeBlocksMax),
  );

  return {
    chainId,
    snapshot,
    checkpoint,
    blockNumber,
    vaultAddress,
    tokenAddress,
    block,
    headBlock,
    vaultBalance,
    lockedOnChain,
    sentPaid,
    postedUnpaid,
    plays,
    notRecorded,
  };
}

type CheckpointRead = Awaited<ReturnType<typeof readAtCheckpoint>>;

/** The ledger's side, line by line: what it owes, and the differences it explains. */
function reconciliationLines(read: CheckpointRead) {
  const { snapshot, notRecorded, plays, sentPaid, postedUnpaid } = read;
  const surplus = {
    units: snapshot.surplus.units + (notRecorded?.units ?? 0n),
    count: snapshot.surplus.count + (notRecorded?.count ?? 0),
  };
  const { byKind, vault: own } = snapshot;
  const withdrawalsPending = own.creditsPending - snapshot.chainPayoutsPending.units;
  const available = (t: AccountTotals) => t.creditsPosted - t.debitsPosted - t.debitsPending;
  const escrow = byKind.escrow;
  const allVaults = byKind.vault;
  const otherVaults = {
    debitsPosted: allVaults.debitsPosted - own.debitsPosted,
    creditsPosted: allVaults.creditsPosted - own.creditsPosted,
    creditsPending: allVaults.creditsPending - own.creditsPending,
  };
  const liabilities = [
    line('players', available(byKind.player)),
    line('developers', available(byKind.developer)),
    line('arcade', available(byKind.arcade)),
    // An escrow's pending credits come from players (plays on the ledger) and from the vault
    // accounts (plays locked on chain, counted in their own line).
    line(
      'open_plays',
      escrow.creditsPosted -
        escrow.debitsPosted +
        escrow.creditsPending -
        escrow.debitsPending -
        allVaults.debitsPending,
    ),
    line('withdrawals_pending', withdrawalsPending, snapshot.reserved.count),
    ...plays.liabilities,
  ];
  const explained = [
    line('held_deposits', snapshot.held.units, snapshot.held.count),
    line('unsolicited_surplus', surplus.units, surplus.count),
    line('withdrawals_paid_not_posted', -sum(sentPaid), sentPaid.length),
    line('withdrawals_posted_paid_after', sum(postedUnpaid), postedUnpaid.length),
    line(
      'other_vaults',
      -(otherVaults.debitsPosted - otherVaults.creditsPosted - otherVaults.creditsPending),
    ),
    ...plays.explained,
  ];
  // The mint account's net debits: all HST issued in the ledger alone.
  const minted = byKind.mint.debitsPosted - byKind.mint.creditsPosted;
  return { liabilities, explained, minted, withdrawalsPending };
}

/** What the numbers alone do not show: a lost block, a watcher catching up, a reserve astray. */
function checkpointFindings(read: CheckpointRead, withdrawalsPending: Units): string[] {
  const { block, checkpoint, blockNumber, notRecorded, snapshot } = read;
  const findings: string[] = [];
  // The balance was read by block number: it is the checkpoint's block only if the chain still
  // has the block the watcher recorded there.
  if (block.hash !== checkpoint.blockHash) {
    findings.push(
      `the chain's block ${blockNumber} is ${block.hash}, not ${checkpoint.blockHash} as the ` +
        'watcher recorded: a reorganisation deeper than the confirmations; deposits credited ' +
        'from the lost blocks may not exist (docs/operating/chain.md)',
    );
  }
  if (notRecorded === null) {
    findings.push(
      `the watcher has read the HST transferred to the vault up to block ` +
        `${checkpoint.surplusBlockNumber ?? checkpoint.startBlock - 1n} only, below the ` +
        `checkpoint ${blockNumber}: it is catching up; reconcile again once it has`,
    );
  }
  if (snapshot.reserved.units !== withdrawalsPending) {
    findings.push(
      `the withdrawals reserved (${formatHst(snapshot.reserved.units)} HST) differ from the ` +
        `vault account's pending credits less the chain payouts reserved ` +
        `(${formatHst(withdrawalsPending)} HST)`,
    );
  }
  return findings;
}

/** The report as the API and the CLI show it, every amount written by `formatHst`. */
function reconciliationWire(
  read: CheckpointRead,
  { liabilities, explained, minted }: ReturnType<typeof reconciliationLines>,
  result: VaultReconciliation,
  findings: readonly string[],
): ChainReconciliationWire {
  const { chainId, vaultAddress, tokenAddress, blockNumber, block, headBlock } = read;
  const { vaultBalance, lockedOnChain } = read;
  const toWire = (l: ReconciliationLine): ReconciliationLineWire => ({
    kind: l.kind,
    amount: formatHst(l.units),
    count: l.count,
    description: l.description,
  });
  return {
    chainId,
    vaultAddress,
    tokenAddress,
    blockNumber: Number(blockNumber),
    blockHash: block.hash,
    headBlock: Number(headBlock),
    vaultBalance: formatHst(vaultBalance),
    lockedOnChain: formatHst(lockedOnChain),
    liabilities: liabilities.map(toWire),
    liabilitiesTotal: formatHst(result.liabilitiesUnits),
    explained: explained.map(toWire),
    expected: formatHst(result.expectedUnits),
    minted: formatHst(minted),
    unexplained: formatHst(result.unexplainedUnits),
    reconciled: result.reconciled && findings.length === 0,
    findings: [...findings, ...result.findings],
  };
}

const sum = (withdrawals: readonly WithdrawalToCheck[]) =>
  withdrawals.reduce((total, w) => total + w.amountUnits, 0n);
