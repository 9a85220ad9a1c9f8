import { describe, expect, it } from 'vitest';
import { reconcileVault, type ReconciliationLine } from '../../src/index.js';

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
      name: 'HST sent straight to the vault is a surplus',
      balance: 100n * HST + 1n,
      explained: [],
      minted: 0n,
      unexplained: 1n,
      findings: [
        'the vault holds 0.00000001 HST more than the ledger accounts for (HST sent to the vault ' +
          'without deposit credits nobody)',
      ],
    },
    {
      name: 'minted HST is a shortfall, said as such',
      balance: 88n * HST,
      explained: [],
      minted: 12n * HST,
      unexplained: -12n * HST,
      findings: [
        '12 HST was minted in the ledger (coinop admin hst mint, the faucet): the ledger owes it ' +
          'and the vault does not back it',
      ],
    },
    {
      name: 'minted HST and a shortfall besides are two findings',
      balance: 87n * HST + 50_000_000n,
      explained: [],
      minted: 12n * HST,
      unexplained: -12n * HST - 50_000_000n,
      findings: [
        '12 HST was minted in the ledger (coinop admin hst mint, the faucet): the ledger owes it ' +
          'and the vault does not back it',
        'the vault holds 0.5 HST less than the ledger accounts for',
      ],
    },
  ])('$name', ({ balance, explained, minted, unexplained, findings }) => {
    const result = reconcileVault({
      vaultBalanceUnits: balance,
      liabilities,
      explained,
      mintedUnits: minted,
    });
    expect(result).toEqual({
      liabilitiesUnits: 100n * HST,
      explainedUnits: explained.reduce((s, l) => s + l.units, 0n),
      expectedUnits: 100n * HST + explained.reduce((s, l) => s + l.units, 0n),
      unexplainedUnits: unexplained,
      reconciled: unexplained === 0n,
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
