import { describe, expect, it } from 'vitest';
import { describeLockEnd, type LockEndRecorded } from '../../src/chain/lock-ends.js';

/** What the operator reads when a lock ends on chain other than by coinop's own batch. */
describe('describeLockEnd', () => {
  const playId = '0193a1b2-0000-7000-8000-000000000001';
  const tx = `0x${'ab'.repeat(32)}`;
  const ended = (over: Partial<LockEndRecorded>): LockEndRecorded => ({
    playId,
    end: 'reclaimed',
    txHash: tx,
    foreign: false,
    outcome: { kind: 'voided' },
    ...over,
  });

  it.each<[string, Partial<LockEndRecorded>, 'info' | 'warn' | 'error', string]>([
    [
      'a reclaim of an open play',
      {},
      'info',
      `play ${playId}: its player reclaimed the lock after the vault's lock timeout; the open ` +
        'play is voided and takes no score',
    ],
    [
      'a reclaim of a voided play',
      { outcome: { kind: 'closed' } },
      'info',
      `play ${playId}: its player reclaimed the lock after the vault's lock timeout; nothing ` +
        'was owed on it in the ledger',
    ],
    [
      'a reclaim of a settled play',
      { outcome: { kind: 'reversed', unreversedUnits: 0n } },
      'warn',
      `play ${playId}: its player reclaimed the lock after the vault's lock timeout; its ` +
        'settlement is reversed in the ledger: its payees gave their shares back, as the vault ' +
        'paid nobody',
    ],
    [
      "a reversal short of the arcade's spent share",
      { outcome: { kind: 'reversed', unreversedUnits: 50_000_000n } },
      'error',
      `play ${playId}: its player reclaimed the lock after the vault's lock timeout; its ` +
        'settlement is reversed in the ledger: its payees gave their shares back, as the vault ' +
        "paid nobody, but for 0.5 HST the arcade's account no longer held: the vault holds " +
        'that much less than the ledger says (coinop admin hst audit --chain); top the vault up',
    ],
    [
      'a refund coinop did not send',
      { end: 'refunded', foreign: true },
      'error',
      `play ${playId}: the lock was refunded on chain by a transaction coinop did not send ` +
        `(${tx}): the operator key is used outside this arcade; the open play is voided and ` +
        'takes no score',
    ],
    [
      'a settlement a batch found, by a transaction unknown',
      { end: 'settled', foreign: true, txHash: null, outcome: { kind: 'closed' } },
      'error',
      `play ${playId}: the lock was settled on chain by a transaction coinop did not send: the ` +
        'operator key is used outside this arcade; nothing was owed on it in the ledger',
    ],
  ])('%s', (_name, over, level, message) => {
    expect(describeLockEnd(ended(over))).toEqual({ level, message });
  });
});
