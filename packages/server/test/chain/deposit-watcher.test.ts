import { randomUUID } from 'node:crypto';
import { availableUnits, MAX_UNITS } from '@coinop/core';
import type { TestApi } from '@coinop/testkit/app';
import { fundedPlayer, nextWallet } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { depositTransferId } from '../../src/chain/deposit-ids.js';
import { DepositWatcher } from '../../src/chain/watcher.js';
import type { ChainConfig } from '../../src/config.js';
import { uuidIds } from '../../src/ids.js';
import { createDeveloper } from '../../src/services/admin.js';
import { readCheckpoint } from '../../src/store/chain-checkpoints.js';
import { auditLedger, findAccount } from '../../src/store/ledger.js';
import { HST, newChainArcade, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/**
 * The chain watcher on a real Anvil: deposits into the vault credited once, after their
 * confirmations, across restarts and reorganisations, on every store.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

describe.each(storeVariants())('the deposit watcher on %s', (variant) => {
  let api: TestApi | null = null;
  afterEach(async () => {
    if (api) {
      await expectLedgerBalanced(api.db);
      await api.close();
    }
    api = null;
  });

  /** A fresh arcade watching a fresh vault; the watcher is driven round by round. */
  async function arcadeOnNewVault(overrides: Partial<ChainConfig> = {}) {
    const arcade = await newChainArcade(chain, variant, overrides);
    api = arcade.api;
    return arcade;
  }

  const unitsOf = async (db: TestApi['db'], accountId: string) => {
    const account = await findAccount(db, accountId);
    return account ? availableUnits(account) : null;
  };

  const depositRows = (db: TestApi['db']) =>
    db.query<{ status: string; held_reason: string | null; amount_units: string }>(
      `SELECT status, held_reason, amount_units::text FROM chain_deposits
       ORDER BY block_number, log_index`,
    );

  it('credits a deposit once it has its confirmations, and not before', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault({ confirmations: 3 });
    const player = await fundedPlayer(api, 0);
    const amount = 12n * HST + 34_567_891n;
    const deposit = await chain.deposit(vault, chain.players[0]!, player.accountId, amount);

    // The deposit's block is the head: 0 confirmations, then 1 and 2.
    for (let mined = 0; mined < 3; mined++) {
      const round = await watcher.runOnce();
      expect(round.outcome).not.toBe('halted');
      expect(await unitsOf(api.db, player.accountId)).toBe(0n);
      expect(await depositRows(api.db)).toEqual([]);
      await chain.mine(1);
    }
    expect(await chain.head()).toBe(deposit.blockNumber + 3n);
    const round = await watcher.runOnce();
    expect(round).toMatchObject({ outcome: 'scanned', credited: 1, held: 0 });
    expect(await unitsOf(api.db, player.accountId)).toBe(amount);

    // One posted transfer from the vault account, with the id the event's place gives it.
    const transferId = depositTransferId(chain.chainId, deposit.txHash, deposit.logIndex);
    const transfers = await api.db.query<{
      id: string;
      kind: string;
      amount: bigint;
      reason: string;
    }>(`SELECT id, kind, amount, reason FROM transfers WHERE credit_account_id = $1`, [
      player.accountId,
    ]);
    expect(transfers).toEqual([{ id: transferId, kind: 'posted', amount, reason: 'deposit' }]);
    expect(await depositRows(api.db)).toEqual([
      { status: 'credited', held_reason: null, amount_units: amount.toString() },
    ]);

    // More rounds and more blocks change nothing.
    await chain.mine(5);
    expect(await watcher.runOnce()).toMatchObject({ outcome: 'scanned', credited: 0 });
    expect(await watcher.runOnce()).toMatchObject({ outcome: 'up_to_date' });
    expect(await unitsOf(api.db, player.accountId)).toBe(amount);
    const audit = await auditLedger(api.db);
    expect(audit.vaultHeld).toBe(amount);

    const checkpoint = await readCheckpoint(api.db, watcher.key!);
    expect(checkpoint).toMatchObject({
      blockNumber: (await chain.head()) - 3n,
      headBlock: await chain.head(),
      reorgDetectedAt: null,
      lastError: null,
    });
  });

  it('credits with no confirmations at the head, for a development chain', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault({ confirmations: 0 });
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[1]!, player.accountId, 5n * HST);
    expect(await watcher.runOnce()).toMatchObject({ outcome: 'scanned', credited: 1 });
    expect(await unitsOf(api.db, player.accountId)).toBe(5n * HST);
  });

  it("credits a deposit naming a player's or a developer's id to their account", async () => {
    const { api, vault, watcher } = await arcadeOnNewVault({ confirmations: 0 });
    const player = await fundedPlayer(api, 0);
    const { developerId } = await createDeveloper(api.app.arcade, nextWallet());
    const [developer] = await api.db.query<{ account_id: string }>(
      'SELECT account_id FROM developers WHERE id = $1',
      [developerId],
    );
    await chain.deposit(vault, chain.players[0]!, player.playerId, 2n * HST);
    await chain.deposit(vault, chain.players[1]!, developerId, 3n * HST);
    expect(await watcher.runOnce()).toMatchObject({ credited: 2, held: 0 });
    expect(await unitsOf(api.db, player.accountId)).toBe(2n * HST);
    expect(await unitsOf(api.db, developer!.account_id)).toBe(3n * HST);
    expect(
      await api.db.query(
        'SELECT account_id, credited_account_id FROM chain_deposits ORDER BY block_number',
      ),
    ).toEqual([
      { account_id: player.playerId, credited_account_id: player.accountId },
      { account_id: developerId, credited_account_id: developer!.account_id },
    ]);
  });

  it('resumes from its checkpoint after a restart, and a range read again credits nothing twice', async () => {
    const { api, vault, config, watcher } = await arcadeOnNewVault({ confirmations: 1 });
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 7n * HST);
    await chain.mine(1);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    await watcher.stop();

    // A new process on the same database: it carries on from the checkpoint.
    await chain.deposit(vault, chain.players[1]!, player.accountId, 3n * HST);
    await chain.mine(1);
    const restarted = new DepositWatcher({
      db: api.db,
      clock: api.clock,
      ids: uuidIds,
      chain: config,
      playTtlSeconds: 3600,
    });
    expect(await restarted.runOnce()).toMatchObject({ outcome: 'scanned', credited: 1 });
    expect(await unitsOf(api.db, player.accountId)).toBe(10n * HST);

    // Were the checkpoint ever behind its deposits, the range is read again: each deposit is
    // already recorded by its key, and nothing is credited twice.
    await api.db.query('UPDATE chain_checkpoints SET block_number = NULL, block_hash = NULL');
    expect(await restarted.runOnce()).toMatchObject({ outcome: 'scanned', credited: 0, held: 0 });
    expect(await unitsOf(api.db, player.accountId)).toBe(10n * HST);

    // And were the deposits forgotten too, the transfers' ids still make the credit a no-op.
    await api.db.query('DELETE FROM chain_deposits');
    await api.db.query('UPDATE chain_checkpoints SET block_number = NULL, block_hash = NULL');
    expect(await restarted.runOnce()).toMatchObject({ outcome: 'scanned', credited: 2 });
    expect(await unitsOf(api.db, player.accountId)).toBe(10n * HST);
    expect((await depositRows(api.db)).map((r) => r.status)).toEqual(['credited', 'credited']);
    const [count] = await api.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM transfers WHERE reason = 'deposit'",
    );
    expect(count?.n).toBe(2);
  });

  it('holds a deposit to an account that does not exist or cannot take one', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault({ confirmations: 0 });
    const nobody = randomUUID();
    await chain.deposit(vault, chain.players[0]!, nobody, 4n * HST);
    await chain.deposit(vault, chain.players[0]!, api.app.arcade.record.accountId, HST);
    expect(await watcher.runOnce()).toMatchObject({ credited: 0, held: 2 });
    expect(await depositRows(api.db)).toEqual([
      { status: 'held', held_reason: 'unknown_account', amount_units: (4n * HST).toString() },
      { status: 'held', held_reason: 'not_a_deposit_account', amount_units: HST.toString() },
    ]);
    expect(await unitsOf(api.db, api.app.arcade.record.accountId)).toBe(0n);
    expect((await auditLedger(api.db)).vaultHeld).toBe(0n);
  });

  it('holds an amount no balance can hold, and a credit that would overflow one', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault({ confirmations: 0 });
    const player = await fundedPlayer(api, 0);
    const other = await fundedPlayer(api, 0);
    const whale = chain.players[2]!;
    await chain.mint(whale, 2n * MAX_UNITS + 2n);
    await chain.deposit(vault, whale, player.accountId, MAX_UNITS + 1n);
    await chain.deposit(vault, whale, player.accountId, MAX_UNITS);
    // Fits a balance, but the vault account's total of deposits would pass what it holds.
    await chain.deposit(vault, whale, other.accountId, 1n);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1, held: 2 });
    expect(await depositRows(api.db)).toEqual([
      {
        status: 'held',
        held_reason: 'amount_out_of_range',
        amount_units: (MAX_UNITS + 1n).toString(),
      },
      { status: 'credited', held_reason: null, amount_units: MAX_UNITS.toString() },
      { status: 'held', held_reason: 'amount_out_of_range', amount_units: '1' },
    ]);
    expect(await unitsOf(api.db, player.accountId)).toBe(MAX_UNITS);
    expect(await unitsOf(api.db, other.accountId)).toBe(0n);
  });

  it('never credits a deposit a reorganisation within the confirmations removed', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault({ confirmations: 3 });
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 9n * HST);
    await chain.mine(1);
    expect(await watcher.runOnce()).toMatchObject({ outcome: 'scanned', credited: 0 });
    // The deposit's block and the one on it are replaced by two empty blocks.
    await chain.reorg(2);
    await chain.mine(5);
    expect(await watcher.runOnce()).toMatchObject({ outcome: 'scanned', credited: 0, held: 0 });
    expect(await depositRows(api.db)).toEqual([]);

    // Dropped blocks (a rollback) likewise; a deposit made after is credited as usual.
    await chain.deposit(vault, chain.players[1]!, player.accountId, 2n * HST);
    await chain.rollback(1);
    await chain.deposit(vault, chain.players[1]!, player.accountId, 3n * HST);
    await chain.mine(3);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1, held: 0 });
    expect(await unitsOf(api.db, player.accountId)).toBe(3n * HST);
    expect(await depositRows(api.db)).toHaveLength(1);
  });

  it('stops crediting when a reorganisation replaced its checkpoint, and says so', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault({ confirmations: 1 });
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 6n * HST);
    await chain.mine(1);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    const before = await readCheckpoint(api.db, watcher.key!);

    // Deeper than the one confirmation: the checkpoint's block is replaced.
    await chain.reorg(3);
    expect(await watcher.runOnce()).toEqual({ outcome: 'halted' });
    const halted = await readCheckpoint(api.db, watcher.key!);
    expect(halted?.reorgDetectedAt).toBeInstanceOf(Date);
    expect(halted?.blockNumber).toBe(before?.blockNumber);
    expect(halted?.blockHash).toBe(before?.blockHash);
    expect(halted?.reorgFoundHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(halted?.reorgFoundHash).not.toBe(before?.blockHash);

    // Nothing more is credited, however deep the next deposit gets.
    await chain.deposit(vault, chain.players[0]!, player.accountId, 2n * HST);
    await chain.mine(5);
    expect(await watcher.runOnce()).toEqual({ outcome: 'halted' });
    expect(await unitsOf(api.db, player.accountId)).toBe(6n * HST);
    expect(await depositRows(api.db)).toHaveLength(1);
  });
});
