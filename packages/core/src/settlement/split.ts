import type { Units } from '../money.js';

/** How a settled play's cost is divided, in whole percent; must sum to 100. */
export interface SplitRule {
  readonly leadersPercent: number;
  readonly developerPercent: number;
  readonly arcadePercent: number;
}

/** The default rule (Haste's "leaderboard payout"): 70% leaders, 20% developer, 10% arcade. */
export const DEFAULT_SPLIT_RULE: SplitRule = Object.freeze({
  leadersPercent: 70,
  developerPercent: 20,
  arcadePercent: 10,
});

export interface Share {
  readonly accountId: string;
  readonly role: 'leader' | 'developer' | 'arcade';
  readonly amount: Units;
}

/** Throws TypeError on a rule that is not three whole, non-negative percents summing to 100. */
export function assertSplitRule(rule: SplitRule): void {
  const parts = [rule.leadersPercent, rule.developerPercent, rule.arcadePercent];
  if (!parts.every((p) => Number.isInteger(p) && p >= 0) || parts.reduce((a, b) => a + b) !== 100) {
    throw new TypeError(`split rule must be whole percents summing to 100, got ${parts.join('/')}`);
  }
}

/**
 * Splits `cost` among the leaders at the time of the play, the developer and the arcade. Each
 * leader gets an equal share of the leaders' part; with no leaders that part goes to the
 * developer. Every remainder of integer division goes to the arcade, so the shares always sum to
 * `cost` exactly. Zero shares are left out. Leaders are paid in the order given, one share each
 * even when listed twice.
 */
export function splitCost(
  cost: Units,
  leaderAccountIds: readonly string[],
  developerAccountId: string,
  arcadeAccountId: string,
  rule: SplitRule = DEFAULT_SPLIT_RULE,
): Share[] {
  if (cost < 0n) throw new TypeError(`cost must not be negative, got ${cost}`);
  const leaders = [...new Set(leaderAccountIds)];
  const leadersPart = (cost * BigInt(rule.leadersPercent)) / 100n;
  let developerPart = (cost * BigInt(rule.developerPercent)) / 100n;
  const shares: Share[] = [];
  let paid = 0n;

  if (leaders.length === 0) {
    developerPart += leadersPart;
  } else {
    const each = leadersPart / BigInt(leaders.length);
    for (const accountId of leaders) {
      shares.push({ accountId, role: 'leader', amount: each });
      paid += each;
    }
  }
  shares.push({ accountId: developerAccountId, role: 'developer', amount: developerPart });
  paid += developerPart;
  shares.push({ accountId: arcadeAccountId, role: 'arcade', amount: cost - paid });
  return shares.filter((s) => s.amount > 0n);
}
