import { CoinopError } from '../errors.js';
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
  /**
   * Surplus an operator used to cover a shortfall: in the vault, on no line, backing HST the ledger
   * owes. Counted against the minted HST first, the one shortfall the ledger knows the size of.
   */
  readonly coveredUnits?: Units;
}

export interface VaultReconciliation {
  readonly liabilitiesUnits: Units;
  readonly explainedUnits: Units;
  /** What the vault should hold: liabilities plus the explained lines. */
  readonly expectedUnits: Units;
  /** The vault's balance less what it should hold: zero when the two agree to the unit. */
  readonly unexplainedUnits: Units;
  readonly reconciled: boolean;
  /** How much less the vault holds than it should (0 when it holds as much or more). */
  readonly shortfallUnits: Units;
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
  // its own size, less what covered surplus backs, said apart from whatever else is off so the
  // operator sees each cause.
  const covered = min(input.coveredUnits ?? 0n, input.mintedUnits);
  const minted = input.mintedUnits - covered;
  if (minted !== 0n) {
    const how =
      covered === 0n
        ? 'HST was minted in the ledger (before chain mode, which refuses the mint and the faucet)'
        : `HST was minted in the ledger and is not covered (${formatHst(input.mintedUnits)} ` +
          `minted, ${formatHst(covered)} covered with surplus; chain mode refuses the mint and ` +
          'the faucet)';
    findings.push(
      `${formatHst(minted)} ${how}: the ledger owes it and the vault does not back it; back it ` +
        'with a plain HST transfer to the vault, then cover the shortfall with it ' +
        '(docs/operating/chain.md)',
    );
  }
  const rest = unexplainedUnits + minted;
  if (rest > 0n) {
    findings.push(
      `the vault holds ${formatHst(rest)} HST more than the ledger and the recorded surplus ` +
        'account for',
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
    shortfallUnits: unexplainedUnits < 0n ? -unexplainedUnits : 0n,
    findings: reconciled ? [] : findings,
  };
}

/**
 * What the chain watcher does after reconciling (docs/concepts/chain.md#halts): a shortfall
 * beyond what the operator accepted when they last resumed halts every sender, since paying out
 * would spend HST the ledger owes others; a surplus never does. The accepted shortfall only ever
 * shrinks: it follows the shortfall down as it is covered, so it cannot hide a new one later.
 */
export function decideBacking(input: {
  readonly shortfallUnits: Units;
  readonly acceptedShortfallUnits: Units;
}): { readonly halt: boolean; readonly acceptedShortfallUnits: Units } {
  const { shortfallUnits, acceptedShortfallUnits } = input;
  if (shortfallUnits > acceptedShortfallUnits) return { halt: true, acceptedShortfallUnits };
  return { halt: false, acceptedShortfallUnits: shortfallUnits };
}

/**
 * Whether the operator may resume the senders with the vault `shortfallUnits` short at
 * `blockNumber`: yes when it is not short, or when they accept exactly that shortfall (covered
 * outside the vault), so a shortfall is never waved through unread. Throws `chain_shortfall`
 * naming the amount otherwise; returns the shortfall accepted.
 */
export function decideResume(input: {
  readonly shortfallUnits: Units;
  readonly blockNumber: bigint;
  readonly acceptShortfallUnits: Units | null;
}): Units {
  const { shortfallUnits, blockNumber, acceptShortfallUnits } = input;
  if (shortfallUnits === 0n) return 0n;
  const shortfall = formatHst(shortfallUnits);
  if (acceptShortfallUnits === shortfallUnits) return shortfallUnits;
  const details = {
    shortfall,
    blockNumber: Number(blockNumber),
    ...(acceptShortfallUnits === null ? {} : { accepted: formatHst(acceptShortfallUnits) }),
  };
  throw new CoinopError(
    'chain_shortfall',
    `the vault holds ${shortfall} HST less than the ledger owes at block ${blockNumber}: ` +
      "resuming would pay out of other players' HST. Cover the shortfall first " +
      '(docs/operating/chain.md#resuming-after-a-halt), or, if it is covered outside the vault, ' +
      `resume accepting a shortfall of exactly ${shortfall} HST` +
      (acceptShortfallUnits === null ? '' : ` (not ${formatHst(acceptShortfallUnits)} HST)`),
    { details },
  );
}

const min = (a: Units, b: Units): Units => (a < b ? a : b);

/**
 * Whether the vault's last reconciliation with the ledger (`reconciledAt`; null: never) is too
 * old for HST to leave it. A watcher that keeps failing, or is still catching up, no longer
 * checks that the two agree, so the senders wait as they do for a halt; they go on by themselves
 * once it reconciles again (nothing was found to disagree, so there is nothing to resume).
 */
export function reconciliationStale(
  reconciledAt: Date | null,
  now: Date,
  maxAgeMs: number,
): boolean {
  return reconciledAt === null || now.getTime() - reconciledAt.getTime() > maxAgeMs;
}
