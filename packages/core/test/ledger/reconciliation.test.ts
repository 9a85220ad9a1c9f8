import { describe, expect, it } from 'vitest';
import {
  CoinopError,
  decideBacking,
  decideResume,
  reconcileVault,
  type ReconciliationLine,
} from '../../src/index.js';

const HST = 100_000_000n;
const line = (kind: string, units: bigint): ReconciliationLine => ({
  kind,
  units,
  count: null,
  description: kind,
});

describe('reconciling a vault with the ledger', () => {
  const liabilities = [line('players', 90n * HST), line('withdrawals_pending', 10n * HST)];

  it.each([
    {
      name: 'agrees to the unit',
      balance: 104n * HST,
      explained: [line('held_deposits', 4n * HST)],
      minted: 0n,
      unexplained: 0n,
      findings: [],
    },
    {
      name: 'a withdrawal paid on chain and not yet posted is explained',
      balance: 99n * HST,
      explained: [line('withdrawals_paid_not_posted', -1n * HST)],
      minted: 0n,
      unexplained: 0n,
      findings: [],
    },
    {
      name: 'HST sent straight to the vault, recorded as surplus, is explained',
      balance: 100n * HST + 1n,
      explained: [line('unsolicited_surplus', 1n)],
      minted: 0n,
      unexplained: 0n,
      findings: [],
    },
    {
      name: 'more in the vault than the ledger and the recorded surplus account for',
      balance: 100n * HST + 1n,
      explained: [],
      minted: 0n,
      unexplained: 1n,
      findings: [
        'the vault holds 0.00000001 HST more than the ledger and the recorded surplus account for',
      ],
    },
    {
      name: 'minted HST is a shortfall, said as such',
      balance: 88n * HST,
      explained: [],
      minted: 12n * HST,
      unexplained: -12n * HST,
      findings: [
        '12 HST was minted in the ledger (before chain mode, which refuses the mint and the ' +
          'faucet): the ledger owes it and the vault does not back it; back it with a plain HST ' +
          'transfer to the vault, then cover the shortfall with it (docs/operating/chain.md)',
      ],
    },
    {
      name: 'minted HST and a shortfall besides are two findings',
      balance: 87n * HST + 50_000_000n,
      explained: [],
      minted: 12n * HST,
      unexplained: -12n * HST - 50_000_000n,
      findings: [
        '12 HST was minted in the ledger (before chain mode, which refuses the mint and the ' +
          'faucet): the ledger owes it and the vault does not back it; back it with a plain HST ' +
          'transfer to the vault, then cover the shortfall with it (docs/operating/chain.md)',
        'the vault holds 0.5 HST less than the ledger accounts for',
      ],
    },
    {
      // The operator review: the covered top-up was reported as HST more than accounted for.
      name: 'minted HST covered by surplus is no finding, and a later shortfall is said alone',
      balance: 99n * HST + 50_000_000n,
      explained: [],
      minted: 12n * HST,
      covered: 12n * HST,
      unexplained: -50_000_000n,
      findings: ['the vault holds 0.5 HST less than the ledger accounts for'],
    },
    {
      name: 'surplus covering more than the minted HST backs another shortfall',
      balance: 100n * HST,
      explained: [],
      minted: 2n * HST,
      covered: 5n * HST,
      unexplained: 0n,
      findings: [],
    },
  ])('$name', ({ balance, explained, minted, unexplained, findings, ...rest }) => {
    const result = reconcileVault({
      vaultBalanceUnits: balance,
      liabilities,
      explained,
      mintedUnits: minted,
      coveredUnits: 'covered' in rest ? rest.covered : 0n,
    });
    expect(result).toEqual({
      liabilitiesUnits: 100n * HST,
      explainedUnits: explained.reduce((s, l) => s + l.units, 0n),
      expectedUnits: 100n * HST + explained.reduce((s, l) => s + l.units, 0n),
      unexplainedUnits: unexplained,
      reconciled: unexplained === 0n,
      shortfallUnits: unexplained < 0n ? -unexplained : 0n,
      findings,
    });
  });

  it('compares amounts past what a ledger balance or a float holds exactly', () => {
    const huge = 2n ** 200n + 1n;
    const result = reconcileVault({
      vaultBalanceUnits: huge,
      liabilities: [line('players', 1n)],
      explained: [line('held_deposits', 2n ** 200n)],
      mintedUnits: 0n,
    });
    expect(result.unexplainedUnits).toBe(0n);
    expect(result.reconciled).toBe(true);
  });
});

describe('deciding whether the vault backs the ledger', () => {
  it.each([
    { name: 'backed: nothing halts', shortfall: 0n, accepted: 0n, halt: false, after: 0n },
    { name: 'one unit short halts', shortfall: 1n, accepted: 0n, halt: true, after: 0n },
    { name: 'a shortfall accepted at resume', shortfall: 5n, accepted: 5n, halt: false, after: 5n },
    { name: 'beyond the accepted halts', shortfall: 6n, accepted: 5n, halt: true, after: 5n },
    { name: 'the accepted follows it down', shortfall: 2n, accepted: 5n, halt: false, after: 2n },
    { name: 'covered: nothing accepted', shortfall: 0n, accepted: 5n, halt: false, after: 0n },
  ])('$name', ({ shortfall, accepted, halt, after }) => {
    expect(decideBacking({ shortfallUnits: shortfall, acceptedShortfallUnits: accepted })).toEqual({
      halt,
      acceptedShortfallUnits: after,
    });
  });
});

describe('deciding on a resume', () => {
  it('resumes a vault that is not short, whatever is accepted', () => {
    expect(decideResume({ shortfallUnits: 0n, blockNumber: 7n, acceptShortfallUnits: null })).toBe(
      0n,
    );
    expect(decideResume({ shortfallUnits: 0n, blockNumber: 7n, acceptShortfallUnits: 3n })).toBe(
      0n,
    );
  });

  it('resumes a short vault only when exactly its shortfall is accepted', () => {
    expect(
      decideResume({
        shortfallUnits: 100n * HST,
        blockNumber: 7n,
        acceptShortfallUnits: 100n * HST,
      }),
    ).toBe(100n * HST);
  });

  it.each([
    {
      accept: null,
      message:
        'the vault holds 100 HST less than the ledger owes at block 7: resuming would pay out of ' +
        "other players' HST. Cover the shortfall first (docs/operating/chain.md#resuming-after-a-" +
        'halt), or, if it is covered outside the vault, resume accepting a shortfall of exactly ' +
        '100 HST',
      details: { shortfall: '100', blockNumber: 7 },
    },
    {
      accept: 99n * HST,
      message:
        'the vault holds 100 HST less than the ledger owes at block 7: resuming would pay out of ' +
        "other players' HST. Cover the shortfall first (docs/operating/chain.md#resuming-after-a-" +
        'halt), or, if it is covered outside the vault, resume accepting a shortfall of exactly ' +
        '100 HST (not 99 HST)',
      details: { shortfall: '100', blockNumber: 7, accepted: '99' },
    },
    {
      accept: 100n * HST + 1n,
      message: expect.stringMatching(/exactly 100 HST \(not 100\.00000001 HST\)$/),
      details: { shortfall: '100', blockNumber: 7, accepted: '100.00000001' },
    },
  ])('refuses a short vault accepting $accept', ({ accept, message, details }) => {
    let thrown: unknown;
    try {
      decideResume({ shortfallUnits: 100n * HST, blockNumber: 7n, acceptShortfallUnits: accept });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CoinopError);
    expect(thrown).toMatchObject({ code: 'chain_shortfall', message, details });
  });
});
