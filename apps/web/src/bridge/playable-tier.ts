import type { Leaderboard } from '@coinop/protocol';
import { hstUnits } from '../account/hst-amounts.js';

/**
 * A tier the game page offers for a play, a game's tier or a tournament's open round, with its
 * cost exact in base units: what the dialog shows, the wallet signs (`Lock: …`) and the arcade
 * locks. `cost` stays the spec's JSON number, for the game in the frame.
 */
export interface PlayableTier extends Leaderboard {
  readonly costUnits: bigint;
}

/**
 * A game's tier as the API gives it. Its cost is whole HST by rule (at most 10^9), which its JSON
 * number holds exactly; a round's entry fee, which may have 8 decimals, comes from its exact
 * decimal string instead (`roundAsTier`).
 */
export function playableTier(tier: Leaderboard): PlayableTier {
  return { ...tier, costUnits: hstUnits(tier.cost) };
}
