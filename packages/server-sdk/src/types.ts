/**
 * The shapes the arcade API answers with, field for field (spec section 2). Amounts are HST as
 * numbers with at most 8 decimals; timestamps are ISO 8601 strings in UTC.
 */

/**
 * One player on a leaderboard with their best score (spec 2.4).
 *
 * @example
 * ```ts
 * import type { Leader } from '@coinop/server-sdk';
 * const top: Leader | undefined = (await arcade.leaders(leaderboardId))[0];
 * ```
 */
export interface Leader {
  readonly playerId: string;
  /** The player's best score on this leaderboard. */
  readonly score: number;
  /** The player's display name. */
  readonly name: string;
  /** URL of the player's avatar. */
  readonly avatar: string;
}

/**
 * A leaderboard tier: what a play costs and who leads (spec 2.3).
 *
 * @example
 * ```ts
 * import type { Leaderboard } from '@coinop/server-sdk';
 * const tiers: Leaderboard[] = await arcade.leaderboards();
 * console.log(tiers.map((t) => `${t.name}: ${t.formattedCostString}`));
 * ```
 */
export interface Leaderboard {
  readonly id: string;
  /** Tier name, for example "Practice". */
  readonly name: string;
  /** What one play costs, in HST. */
  readonly cost: number;
  readonly currency: 'HST';
  /** The cost for display, for example "1 HST". */
  readonly formattedCostString: string;
  /** How many leaders the board keeps. */
  readonly leadersMax: number;
  /** Current leaders, best first. */
  readonly leaders: readonly Leader[];
}

/**
 * The game the client credentials belong to, with its tiers (spec 2.2).
 *
 * @example
 * ```ts
 * import type { Game } from '@coinop/server-sdk';
 * const game: Game = arcade.game;
 * console.log(game.name, game.scoreDisplay);
 * ```
 */
export interface Game {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly category: string;
  readonly developerInfo: string;
  readonly tagLine: string;
  /** Where the game is hosted; empty until set. */
  readonly url: string;
  readonly coverUrl: string;
  /** NORMAL: higher scores are better; REVERSE: lower. */
  readonly scoreDisplay: 'NORMAL' | 'REVERSE';
  readonly prodDomain: string | null;
  /** Whether the arcade lists the game in its catalog. */
  readonly published: boolean;
  /** Tiers, in display order. */
  readonly leaderboards: readonly Leaderboard[];
  /** The developer's id (the spec's name for it). */
  readonly playerId: string;
}

/**
 * A play: the cost of one tier locked from a player until the play is scored or expires
 * (spec 2.5).
 *
 * @example
 * ```ts
 * import type { Play } from '@coinop/server-sdk';
 * const play: Play = await arcade.play(playerId, leaderboardId);
 * console.log(`locked ${play.cost} HST until ${play.expiresAt}`);
 * ```
 */
export interface Play {
  /** Needed to submit the score. */
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly deletedAt: null;
  readonly deleted: boolean;
  readonly playerId: string;
  readonly gameId: string;
  /** The arcade's id. */
  readonly gameArcadeId: string;
  readonly developerId: string;
  readonly leaderboardId: string;
  /** HST locked for the play. */
  readonly cost: number;
  /** Id of the ledger transfer that locked the cost ("" for a free tier). */
  readonly ilpRegistrationId: string;
  readonly status: 'open' | 'scored' | 'expired';
  /** When an unscored play expires and its cost returns to the player. */
  readonly expiresAt: string;
}

/**
 * What scoring a play did: the rank of the score and the leaders after it (spec 2.6).
 *
 * @example
 * ```ts
 * import type { ScoreResult } from '@coinop/server-sdk';
 * const result: ScoreResult = await arcade.score(play, 1200);
 * if (result.isWinner) console.log(`rank ${result.leaderRank}`);
 * ```
 */
export interface ScoreResult {
  /** The score's id. */
  readonly id: string;
  readonly playId: string;
  readonly leaderboardId: string;
  readonly score: number;
  /** Leaders of the tier after this score. */
  readonly leaders: readonly Leader[];
  /** Whether the score placed the player among the leaders. */
  readonly isWinner: boolean;
  /** 1 + the number of other players whose best beats this score. */
  readonly leaderRank: number;
}

/**
 * A player's best score on a tier, and its rank; both null when they have not scored there.
 *
 * @example
 * ```ts
 * import type { TopScore } from '@coinop/server-sdk';
 * const best: TopScore = await arcade.topScore(leaderboardId, playerId);
 * console.log(best.value ?? 'no score yet');
 * ```
 */
export interface TopScore {
  /** The player. */
  readonly userId: string;
  readonly leaderboardId: string;
  readonly value: number | null;
  readonly rank: number | null;
}

/**
 * One payout a player received from the game as a leader.
 *
 * @example
 * ```ts
 * import type { PayoutEvent } from '@coinop/server-sdk';
 * const [latest]: readonly PayoutEvent[] = (await arcade.payouts(playerId)).events;
 * console.log(latest?.details.paymentAmount);
 * ```
 */
export interface PayoutEvent {
  /** The payout transfer; pass it as `startingAfter` to read older payouts. */
  readonly eventId: string;
  readonly details: {
    /** The player paid. */
    readonly userId: string;
    readonly createdAt: string;
    readonly payeeHandle: string;
    readonly payerHandle: string;
    /** HST paid. */
    readonly paymentAmount: number;
  };
}

/**
 * A page of payouts, newest first, with the cursors of its ends.
 *
 * @example
 * ```ts
 * import type { PayoutsPage } from '@coinop/server-sdk';
 * const page: PayoutsPage = await arcade.payouts(playerId, { limit: 20 });
 * const older = page.endingBefore && (await arcade.payouts(playerId, {
 *   startingAfter: page.endingBefore,
 * }));
 * ```
 */
export interface PayoutsPage {
  /** Id of the newest event of the page; null for an empty page. */
  readonly startingAfter: string | null;
  /** Id of the oldest event of the page; null for an empty page. */
  readonly endingBefore: string | null;
  readonly events: readonly PayoutEvent[];
}

/**
 * The ledger transfer that locked a play's cost, and where it stands.
 *
 * @example
 * ```ts
 * import type { PlayTransaction } from '@coinop/server-sdk';
 * const lock: PlayTransaction = await arcade.playTransaction(play.id);
 * console.log(lock.status); // "pending" until the play is scored or expires
 * ```
 */
export interface PlayTransaction {
  /** The lock transfer's id ("" for a free tier). */
  readonly id: string;
  readonly playId: string;
  /** pending: locked; posted: settled by a score; voided: returned on expiry; free: no cost. */
  readonly status: 'pending' | 'posted' | 'voided' | 'free';
  /** The lock transfer's id, again (the name `@hastearcade/server` reads). */
  readonly tx: string;
  /** HST locked. */
  readonly amount: number;
}

/**
 * A player's profile and HST balance.
 *
 * @example
 * ```ts
 * import type { PlayerDetails } from '@coinop/server-sdk';
 * const player: PlayerDetails = await arcade.playerDetails(playerId);
 * console.log(`${player.name} can spend ${player.balance} HST`);
 * ```
 */
export interface PlayerDetails {
  readonly id: string;
  readonly name: string;
  readonly avatar: string;
  /** HST the player can spend now. */
  readonly balance: number;
  /** HST locked by the player's unscored plays. */
  readonly pending: number;
  readonly currency: 'HST';
}

/**
 * What a valid player token says about its player (spec 5.3).
 *
 * @example
 * ```ts
 * import type { PlayerIdentity } from '@coinop/server-sdk';
 * const player: PlayerIdentity = await arcade.validatePlayerToken(token);
 * console.log(player.playerId, player.displayName ?? 'anonymous');
 * ```
 */
export interface PlayerIdentity {
  /** The player's id: pass it to `play` and the player reads. */
  readonly playerId: string;
  /** The display name the player chose; null when the token carries none. */
  readonly displayName: string | null;
  /** URL of the player's avatar; null when they have not set one. */
  readonly picture: string | null;
}
