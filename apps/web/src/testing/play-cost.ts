import type { TestingInvitation } from '@coinop/protocol';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';

/**
 * What a tester may be charged for one play of the game now, in words, so that accepting is
 * consent to a known price (security review: a tester's charges have no daily limit). The
 * developer may change its prices or add tiers later, and the text says so.
 */
export function playCostText({ highestPlayCost }: TestingInvitation): string {
  if (highestPlayCost === null) {
    return 'It has no tiers yet: its developer sets what a play costs.';
  }
  const units = hstUnits(highestPlayCost);
  if (units === 0n) return 'Its plays are free now; its developer may set a price.';
  return `A play costs up to ${formatHstUnits(units)} now; its developer may raise that.`;
}
