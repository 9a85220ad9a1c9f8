import { formatHst, type Units } from '../money.js';

/**
 * Reconciling a chain vault with the ledger (docs/concepts/chain.md#reconciliation): at one block,
 * the vault's token balance must equal what the ledger owes (its liabilities) plus what is
 * explained by timing or by HST the ledger knows of but credits to nobody. Anything else is a
 * difference an operator must explain, and ledger-only (minted) HST is always one: the ledger owes
 * it and no token backs it.
 */

/** One line of a reconciliation: a kind of liability, or a difference the operator can explain. */
export interface ReconciliationLine {
  /** snake_case, stable: what the line is (`players`, `held_deposits`, …). */
  readonly kind: string;
  /** Signed for explained lines: what the vault holds more (+) or less (−) than the ledger owes. */
  readonly units: Units;
  /** How many items (deposits, withdrawals) make the line, where that means something. */
  readonly count: number | null;
  readonly description: string;
}

export interface VaultReconciliationInput {
  /** The vault's token balance at the block compared. */
  readonly vaultBalanceUnits: Units;
  readonly liabilities: readonly ReconciliationLine[];
  readonly explained: readonly ReconciliationLine[];
  /** Ledger-only HST: the mint account's net debits. Part of the liabilities, backed by nothing. */
  readonly mintedUnits: Units;
}

export interface VaultReconciliation {
  readonly liabilitiesUnits: Units;
  readonly explainedUnits: Units;
  /** What the vault should hold: liabilities plus the explained lines. */
  readonly expectedUnits: Units;
  /** The vault's balance less what it should hold: zero when the two agree to the unit. */
  readonly unexplainedUnits: Units;
  readonly reconciled: boolean;
  /** One sentence per cause of the difference, for the operator; empty when reconciled. */
  readonly findings: readonly string[];
}

export function reconcileVault(input: VaultReconciliationInput): VaultReconciliation {
  const sum = (lines: readonly ReconciliationLine[]) =>
    lines.reduce((total, line) => total + line.units, 0n);
  const liabilitiesUnits = sum(input.liabilities);
  const explainedUnits = sum(input.explained);
  const expectedUnits = liabilitiesUnits + explainedUnits;
  const unexplainedUnits = input.vaultBalanceUnits - expectedUnits;
  const findings: string[] = [];
  // Minted HST is counted in the liabilities and never reaches the vault: it is a shortfall of
  // its own size, said apart from whatever else is off so the operator sees each cause.
  const minted = input.mintedUnits;
  if (minted !== 0n) {
    findings.push(
      `${formatHst(minted)} HST was minted in the ledger (coinop admin hst mint, the faucet): ` +
        'the ledger owes it and the vault does not back it',
    );
  }
  const rest = unexplainedUnits + minted;
  if (rest > 0n) {
    findings.push(
      `the vault holds ${formatHst(rest)} HST more than the ledger accounts for (HST sent to ` +
        'the vault without deposit credits nobody)',
    );
  } else if (rest < 0n) {
    findings.push(`the vault holds ${formatHst(-rest)} HST less than the ledger accounts for`);
  }
  const reconciled = unexplainedUnits === 0n;
  return {
    liabilitiesUnits,
    explainedUnits,
    expectedUnits,
    unexplainedUnits,
    reconciled,
    findings: reconciled ? [] : findings,
  };
}
