import type { TestingInvitation } from '@coinop/protocol';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';

/**
 * What a tester may be charged for one play of the game now, in words, so that accepting is
 * consent to a known price. The developer may change its prices or add tiers later, and the text
 * says so: the daily limit the player chooses is what bounds all its plays together.
 */
export function playCostText({ highestPlayCost }: TestingInvitation): string {
  if (highestPlayCost === null) {
    return 'It has no tiers yet: its developer sets what a play costs.';
  }
  const units = hstUnits(highestPlayCost);
  if (units === 0n) return 'Its plays are free now; its developer may set a price.';
  return `A play costs up to ${formatHstUnits(units)} now; its developer may raise that.`;
}

/** What the player's own daily limit for the game lets its server lock from them, in words. */
export function dailyLimitText({ dailyLimit }: TestingInvitation): string {
  if (dailyLimit === null) {
    return 'The arcade’s default daily allowance applies; set your own on its page.';
  }
  const units = hstUnits(dailyLimit);
  if (units === 0n) return 'Your daily limit is 0: it may open only free plays for you.';
  return `It may charge you up to ${formatHstUnits(units)} a day.`;
}

/**
 * An unpublished game's prices and what bounds them: the daily limit the tester chose, or,
 * before they accept, the one they are about to choose.
 */
export function chargeText(invitation: TestingInvitation): string {
  const bound =
    invitation.state === 'accepted'
      ? dailyLimitText(invitation)
      : 'Your daily limit bounds what all its plays may lock a day.';
  return `${playCostText(invitation)} ${bound}`;
}
