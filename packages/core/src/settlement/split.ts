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

/**
 * One payee of a settled play. `player` is the leaders' part no leader can claim, back to the
 * player who paid it (charter: only a leader or the payer may receive what was paid for leaders).
 */
export interface Share {
  readonly accountId: string;
  readonly role: 'leader' | 'player' | 'developer' | 'arcade';
  readonly amount: Units;
}

/** Who a play's cost can go to besides its leaders: its player, the developer and the arcade. */
export interface Payees {
  readonly playerAccountId: string;
  readonly developerAccountId: string;
  readonly arcadeAccountId: string;
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
 * leader gets an equal share of the leaders' part. With no leaders (an empty board, or every
 * leader's score voided) that part goes back to the player who paid it: never to the developer,
 * who may void scores and so would decide who is paid. Every remainder of integer division goes
 * to the arcade, so the shares always sum to `cost` exactly. Zero shares are left out. Leaders
 * are paid in the order given, one share each even when listed twice.
 */
export function splitCost(
  cost: Units,
  leaderAccountIds: readonly string[],
  payees: Payees,
  rule: SplitRule = DEFAULT_SPLIT_RULE,
): Share[] {
  if (cost < 0n) throw new TypeError(`cost must not be negative, got ${cost}`);
  const leaders = [...new Set(leaderAccountIds)];
  const leadersPart = (cost * BigInt(rule.leadersPercent)) / 100n;
  const developerPart = (cost * BigInt(rule.developerPercent)) / 100n;
  const shares: Share[] = [];
  let paid = 0n;

  if (leaders.length === 0) {
    shares.push({ accountId: payees.playerAccountId, role: 'player', amount: leadersPart });
    paid += leadersPart;
  } else {
    const each = leadersPart / BigInt(leaders.length);
    for (const accountId of leaders) {
      shares.push({ accountId, role: 'leader', amount: each });
      paid += each;
    }
  }
  shares.push({ accountId: payees.developerAccountId, role: 'developer', amount: developerPart });
  paid += developerPart;
  shares.push({ accountId: payees.arcadeAccountId, role: 'arcade', amount: cost - paid });
  return shares.filter((s) => s.amount > 0n);
}
