import { randomBytes, randomUUID } from 'node:crypto';
import { openTestDb, storeVariants } from '@coinop/testkit/db';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock, uuidIds } from '../../src/ids.js';
import {
  ensureCheckpoint,
  recordReconciliation,
  type Checkpoint,
} from '../../src/store/chain-checkpoints.js';
import {
  openHalt,
  openHaltOf,
  recordResume,
  SendingHalted,
  SendingUnreconciled,
} from '../../src/store/chain-halts.js';
import { insertOperatorBatch, type NewBatch } from '../../src/store/chain-batches.js';
import type { Db } from '../../src/store/db.js';

/**
 * Issue 27: a halt stops every sender where it records a transaction before broadcasting it
 * (withdrawals, settlements and refunds all record through insertOperatorBatch), whichever
 * process opened the halt; a vault has one open halt at a time; and on Postgres a halt opened
 * while a sender is recording waits for it, so the next record sees the halt. Nor does anything
 * leave while the vault's last reconciliation is older than the senders' limit: nobody checked
 * that the ledger and the vault agree.
 */

const MAX_AGE_MS = 60_000;

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}` as `0x${string}`;

describe.each(storeVariants())('chain halts in the store, on %s', (variant) => {
  let db: Db;
  let vault: Checkpoint;
  beforeEach(async () => {
    db = await openTestDb(variant);
    vault = await ensureCheckpoint(db, systemClock, uuidIds, {
      chainId: 31337,
      vaultAddress: hex(20),
      tokenAddress: hex(20),
      startBlock: 1n,
    });
    await reconciled(new Date());
  });
  afterEach(() => db.close());

  const reconciled = (at: Date) =>
    recordReconciliation(
      db,
      vault,
      { blockNumber: 5n, unexplainedUnits: 0n, acceptedShortfallUnits: 0n },
      at,
    );
  const record = (kind: 'withdraw' | 'settle' | 'refund', nonce = 0n, now = new Date()) =>
    db.transaction((tx) => insertOperatorBatch(tx, batch(nonce), kind, now, MAX_AGE_MS));

  const batch = (nonce: bigint): NewBatch => ({
    id: randomUUID(),
    chainId: vault.chainId,
    vaultAddress: vault.vaultAddress,
    fromAddress: hex(20),
    nonce,
    txHash: hex(32),
    rawTx: hex(100),
  });
  const halt = (cause: 'shortfall' | 'chain_mismatch') => ({
    id: randomUUID(),
    cause,
    detail: `${cause} found`,
    blockNumber: 5n,
    shortfallUnits: cause === 'shortfall' ? 7n : null,
  });
  const batches = async () =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM chain_withdrawal_batches'))[0]!
      .n;

  it('refuses to record any kind of transaction while a halt is open, and records once resumed', async () => {
    const first = halt('shortfall');
    expect(await db.transaction((tx) => openHalt(tx, vault, first, new Date()))).toBe(true);
    // One open halt per vault: a second cause while it stands opens nothing.
    expect(
      await db.transaction((tx) => openHalt(tx, vault, halt('chain_mismatch'), new Date())),
    ).toBe(false);
    expect(await openHaltOf(db, vault)).toMatchObject({
      id: first.id,
      cause: 'shortfall',
      shortfallUnits: 7n,
      resumedAt: null,
    });
    for (const kind of ['withdraw', 'settle', 'refund'] as const) {
      const refused = record(kind);
      await expect(refused).rejects.toBeInstanceOf(SendingHalted);
      await expect(refused).rejects.toMatchObject({ halt: { id: first.id } });
    }
    expect(await batches()).toBe(0);

    const resumed = await db.transaction((tx) =>
      recordResume(
        tx,
        first.id,
        {
          by: 'ops',
          reason: 'covered',
          fromBlock: null,
          acceptedShortfallUnits: null,
          resumed: true,
        },
        new Date(),
      ),
    );
    expect(resumed).toMatchObject({ resumedBy: 'ops', resumeReason: 'covered' });
    expect(resumed?.resumedAt).toBeInstanceOf(Date);
    expect(await openHaltOf(db, vault)).toBeNull();
    await record('withdraw');
    expect(await batches()).toBe(1);
  });

  it('refuses to record while the last reconciliation is older than the limit, or there is none', async () => {
    const at = new Date('2026-11-30T05:00:00Z');
    await reconciled(at);
    const later = (ms: number) => new Date(at.getTime() + ms);
    // At the limit it records; a millisecond past it, no kind of transaction does.
    await record('withdraw', 0n, later(MAX_AGE_MS));
    for (const kind of ['withdraw', 'settle', 'refund'] as const) {
      const refused = record(kind, 1n, later(MAX_AGE_MS + 1));
      await expect(refused).rejects.toBeInstanceOf(SendingUnreconciled);
      await expect(refused).rejects.toMatchObject({ reconciledAt: at });
    }
    expect(await batches()).toBe(1);
    // A reconciliation since lets them go on by themselves: nothing to resume.
    await reconciled(later(MAX_AGE_MS + 5));
    await record('settle', 1n, later(MAX_AGE_MS + 10));
    expect(await batches()).toBe(2);

    // A vault never reconciled (a checkpoint just made, or one moved back by a resume) sends nothing.
    await db.query('UPDATE chain_checkpoints SET reconciled_at = NULL');
    await expect(record('withdraw', 2n)).rejects.toMatchObject({
      name: 'SendingUnreconciled',
      reconciledAt: null,
    });
    expect(await batches()).toBe(2);
  });

  // Concurrency needs two connections: PGlite has one, which serialises them by itself.
  if (variant !== 'postgres') return;
  it('makes a halt opened while a sender records wait for it, and the next record see it', async () => {
    let recording!: () => void;
    const recordingStarted = new Promise<void>((resolve) => (recording = resolve));
    let finish!: () => void;
    const mayFinish = new Promise<void>((resolve) => (finish = resolve));
    const order: string[] = [];
    const sender = db.transaction(async (tx) => {
      await insertOperatorBatch(tx, batch(0n), 'withdraw', new Date(), MAX_AGE_MS);
      recording();
      await mayFinish;
      order.push('recorded');
    });
    await recordingStarted;
    const halting = db
      .transaction((tx) => openHalt(tx, vault, halt('shortfall'), new Date()))
      .then((opened) => order.push(`halted ${opened}`));
    // The halt waits on the sender's lock of the checkpoint row.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(order).toEqual([]);
    finish();
    await Promise.all([sender, halting]);
    expect(order).toEqual(['recorded', 'halted true']);
    await expect(record('withdraw', 1n)).rejects.toBeInstanceOf(SendingHalted);
    expect(await batches()).toBe(1);
  });
});
