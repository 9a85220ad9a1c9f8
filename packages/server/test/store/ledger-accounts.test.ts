import type { AccountDelta, TransferRequest } from '@coinop/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidIds } from '../../src/ids.js';
import type { Db } from '../../src/store/db.js';
import { PgErrorCodes, pgErrorCode } from '../../src/store/postgres-errors.js';
import { findAccount, insertAccount, writeTransferBatch } from '../../src/store/ledger.js';
import { writeScores } from '../../src/store/score-batch.js';
import { openTestDb, storeVariants } from '@coinop/testkit/db';

const now = new Date('2026-01-01T00:00:00Z');

/** A minted transfer of `amount` from `debit` to `credit`, and the balance changes it makes. */
function mint(debit: string, credit: string, amount: bigint) {
  const transfer: TransferRequest = {
    id: uuidIds.next(),
    kind: 'posted',
    debitAccountId: debit,
    creditAccountId: credit,
    amount,
    pendingId: null,
    reason: 'mint',
    playId: null,
  };
  const none = { debitsPending: 0n, creditsPending: 0n };
  const deltas = new Map<string, AccountDelta>([
    [debit, { ...none, debitsPosted: amount, creditsPosted: 0n }],
    [credit, { ...none, debitsPosted: 0n, creditsPosted: amount }],
  ]);
  return { transfer, deltas };
}

// Transfers name their accounts without foreign keys (migration 008): the statement that writes
// them refuses a missing account itself.
describe.each(storeVariants())('a transfer to an account that does not exist, on %s', (variant) => {
  let db: Db;
  let mintAccount: string;
  let player: string;

  beforeEach(async () => {
    db = await openTestDb(variant);
    mintAccount = uuidIds.next();
    player = uuidIds.next();
    await insertAccount(db, mintAccount, 'mint', now);
    await insertAccount(db, player, 'player', now);
  });
  afterEach(() => db.close());

  const transfers = () => db.query<{ id: string }>('SELECT id FROM transfers');

  it('is refused by a ledger batch, which writes nothing', async () => {
    const missing = uuidIds.next();
    const good = mint(mintAccount, player, 500n);
    const bad = mint(mintAccount, missing, 700n);
    const deltas = new Map([...good.deltas, ...bad.deltas]);
    deltas.set(mintAccount, {
      debitsPending: 0n,
      creditsPending: 0n,
      debitsPosted: 1200n,
      creditsPosted: 0n,
    });

    const error = await db
      .transaction((tx) => writeTransferBatch(tx, [good.transfer, bad.transfer], deltas, now))
      .then(
        () => undefined,
        (e: unknown) => e,
      );

    expect(pgErrorCode(error)).toBe(PgErrorCodes.foreignKeyViolation);
    expect(await transfers()).toEqual([]);
    expect((await findAccount(db, player))?.creditsPosted).toBe(0n);
    expect((await findAccount(db, mintAccount))?.debitsPosted).toBe(0n);
  });

  it('is refused by a score batch write, which writes nothing', async () => {
    const { transfer, deltas } = mint(mintAccount, uuidIds.next(), 300n);

    const batch = {
      scores: [],
      bests: [],
      buckets: [],
      transfers: [transfer],
      transferTimes: [now],
      deltas,
      boards: [],
    };
    const error = await writeScores(db.ordered, batch).then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(pgErrorCode(error)).toBe(PgErrorCodes.foreignKeyViolation);
    expect(await transfers()).toEqual([]);
    expect((await findAccount(db, mintAccount))?.debitsPosted).toBe(0n);
  });

  it('goes through when every account exists', async () => {
    const { transfer, deltas } = mint(mintAccount, player, 900n);
    await db.transaction((tx) => writeTransferBatch(tx, [transfer], deltas, now));
    expect(await transfers()).toEqual([{ id: transfer.id }]);
    expect((await findAccount(db, player))?.creditsPosted).toBe(900n);
  });
});
