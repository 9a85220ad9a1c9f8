/**
 * The server-to-server API a game's authoritative server calls (spec sections 2 and 4), field for
 * field: the arcade's TypeBox schemas are checked against these types at compile time, and
 * `@coinop/server-sdk` publishes them. Amounts are HST as numbers with at most 8 decimals;
 * timestamps are ISO 8601 strings in UTC. What the arcade answers is readonly: a client reads it.
 */

/**
 * How a game ranks scores: NORMAL, higher is better; REVERSE, lower is better.
 *
 * @example
 * ```ts
 * import type { ScoreDisplay } from '@coinop/protocol';
 * const golf: ScoreDisplay = 'REVERSE';
 * ```
 */
export type ScoreDisplay = 'NORMAL' | 'REVERSE';

/**
 * One player on a leaderboard with their best score (spec 2.4).
 *
 * @example
 * ```ts
 * import type { Leader } from '@coinop/protocol';
 * const leader: Leader = { playerId: 'p-1', score: 4200, name: 'Ada', avatar: '/avatars/p-1.svg' };
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
 * import type { Leaderboard } from '@coinop/protocol';
 * const tier: Leaderboard = { id: 't-1', name: 'Practice', cost: 1, currency: 'HST',
 *   formattedCostString: '1 HST', leadersMax: 10, leaders: [] };
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
  /**
   * The score rules in force on this tier (its game's, with the tier's overrides; issue 30), for
   * the game page to show; absent when the tier has none.
   */
  readonly scoreRules?: ScoreRules;
  /**
   * Seconds a settled play's payouts on this tier stay pending, held for review, before they are
   * spendable (issue 30); absent when they are paid at once.
   */
  readonly payoutHoldSeconds?: number;
}

/**
 * A game with its tiers (spec 2.2): what a game's server reads with its write token, and the
 * game page of the catalog.
 *
 * @example
 * ```ts
 * import type { Game } from '@coinop/protocol';
 * const tierNames = (game: Game) => game.leaderboards.map((tier) => tier.name);
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
  readonly scoreDisplay: ScoreDisplay;
  /** The unit to show after each score, e.g. "ms" for "109 ms"; empty for none. */
  readonly scoreUnit: string;
  readonly prodDomain: string | null;
  /** Whether the arcade lists the game in its catalog. */
  readonly published: boolean;
  /** Tiers, in display order. */
  readonly leaderboards: readonly Leaderboard[];
  /** The developer's id (the spec's name for it). */
  readonly playerId: string;
  /** The frame's shape, "width:height" (e.g. "16:9"); absent: the arcade's default frame. */
  readonly aspectRatio?: string;
}

/**
 * Where a play stands: open until scored, expired (its cost returned) when it was not scored in
 * time, voided (its cost returned) when the operator suspended its game.
 *
 * @example
 * ```ts
 * import type { PlayStatus } from '@coinop/protocol';
 * const settled = (status: PlayStatus) => status !== 'open';
 * ```
 */
export type PlayStatus = 'open' | 'scored' | 'expired' | 'voided';

/**
 * A play: the cost of one tier locked from a player until the play is scored or expires
 * (spec 2.5).
 *
 * @example
 * ```ts
 * import type { Play } from '@coinop/protocol';
 * const describe = (play: Play) => `${play.cost} HST locked until ${play.expiresAt}`;
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
  readonly status: PlayStatus;
  /**
   * When an unscored play expires: its cost then settles as a score's would, to the leaders of
   * its snapshot, the developer and the arcade (docs/concepts/plays-and-settlement.md). On a
   * tournament round it is the round's end at the latest: the leaders' part then goes to the
   * round's pool (docs/concepts/tournaments.md).
   */
  readonly expiresAt: string;
  /**
   * 64 lowercase hex characters (32 random bytes) the arcade drew when it opened the play, for
   * the game to derive the run's randomness from and its verifier to replay it (issue 30).
   * Absent for a play opened before the arcade drew seeds.
   */
  readonly seed?: string;
}

/**
 * What scoring a play did: the rank of the score and the leaders after it (spec 2.6).
 *
 * @example
 * ```ts
 * import type { ScoreResult } from '@coinop/protocol';
 * const headline = (r: ScoreResult) => (r.isWinner ? `rank ${r.leaderRank}` : 'not a leader');
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
 * The current leaders of a tier, best first (`GET .../leaders/{leaderboardId}`).
 *
 * @example
 * ```ts
 * import type { LeaderList } from '@coinop/protocol';
 * const top = (list: LeaderList) => list.leaders[0]?.name;
 * ```
 */
export interface LeaderList {
  readonly leaders: readonly Leader[];
}

/**
 * A player's best score on a tier, and its rank; both null when they have not scored there.
 *
 * @example
 * ```ts
 * import type { TopScore } from '@coinop/protocol';
 * const best: TopScore = { userId: 'p-1', leaderboardId: 't-1', value: null, rank: null };
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
 * import type { PayoutEvent } from '@coinop/protocol';
 * const paid = (event: PayoutEvent) => event.details.paymentAmount;
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
 * import type { PayoutsPage } from '@coinop/protocol';
 * const empty: PayoutsPage = { startingAfter: null, endingBefore: null, events: [] };
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
 * import type { PlayTransaction } from '@coinop/protocol';
 * const isLocked = (lock: PlayTransaction) => lock.status === 'pending';
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
 * A player's profile and HST balance, as a game's server reads it.
 *
 * @example
 * ```ts
 * import type { PlayerDetails } from '@coinop/protocol';
 * const canPay = (player: PlayerDetails, cost: number) => player.balance >= cost;
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
 * The body of `POST /oauth/writetoken`: the spec's `client_id`/`client_secret`, or the camelCase
 * names `@hastearcade/server` sends (`clientId`, `clientSecret`, `environment`).
 *
 * @example
 * ```ts
 * import type { WriteTokenRequest } from '@coinop/protocol';
 * const body: WriteTokenRequest = { client_id: 'cid_1', client_secret: 'csec_1' };
 * ```
 */
export interface WriteTokenRequest {
  client_id?: string;
  client_secret?: string;
  clientId?: string;
  clientSecret?: string;
  environment?: string;
  grant_type?: string;
}

/**
 * A write token for a game's server (spec 4.2), scoped to one game of one arcade.
 *
 * @example
 * ```ts
 * import type { WriteTokenGrant } from '@coinop/protocol';
 * const header = (grant: WriteTokenGrant) => `Bearer ${grant.access_token}`;
 * ```
 */
export interface WriteTokenGrant {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  /** Seconds until the token expires. */
  readonly expires_in: number;
  readonly developerId: string;
  /** The game the token is scoped to. */
  readonly gameId: string;
  readonly arcadeId: string;
}

/**
 * The body of a play (spec 4.4): who plays which tier. The player comes from a validated player
 * token.
 *
 * @example
 * ```ts
 * import type { PlayRequest } from '@coinop/protocol';
 * const body: PlayRequest = { playerId: 'p-1', leaderboardId: 't-1' };
 * ```
 */
export interface PlayRequest {
  playerId: string;
  leaderboardId: string;
}

/**
 * The body of a score (spec 4.5): the play, its tier, and a finite score that is not negative;
 * optionally the run's replay for the game's verifier (issue 30).
 *
 * @example
 * ```ts
 * import type { ScoreRequest } from '@coinop/protocol';
 * const body: ScoreRequest = { playId: 'play-1', leaderboardId: 't-1', score: 1200 };
 * ```
 */
export interface ScoreRequest {
  playId: string;
  leaderboardId: string;
  score: number;
  /**
   * What the game recorded of the run, for its verifier (issue 30): a string of at most the
   * arcade's `--replay-max-bytes` (64 KiB by default) in UTF-8; 413 `replay_too_large` above it.
   */
  replay?: string;
}

/**
 * The rules a game's scores must meet (issue 30, docs/concepts/score-integrity.md); a null field
 * is no rule. `minScore` and `maxScore` are inclusive; `minPlayMs` is the shortest possible play,
 * from the play's open (server time) to the score's arrival; `replay: 'required'` makes every
 * score carry a replay that the game's verifier reproduces (the game must have a verifier).
 *
 * @example
 * ```ts
 * import type { ScoreRules } from '@coinop/protocol';
 * const rules: ScoreRules = { minScore: 0, maxScore: 5000, minPlayMs: 10_000, replay: 'off' };
 * ```
 */
export interface ScoreRules {
  readonly minScore: number | null;
  readonly maxScore: number | null;
  readonly minPlayMs: number | null;
  readonly replay: 'off' | 'required';
}

/**
 * A tier's overrides of its game's score rules: each null field inherits the game's, `replay`
 * included (so a tier may require replays of a game that does not, or turn them off).
 *
 * @example
 * ```ts
 * import type { TierScoreRules } from '@coinop/protocol';
 * const highStakes: TierScoreRules = { minScore: null, maxScore: null, minPlayMs: null,
 *   replay: 'required' };
 * ```
 */
export interface TierScoreRules {
  readonly minScore: number | null;
  readonly maxScore: number | null;
  readonly minPlayMs: number | null;
  readonly replay: 'off' | 'required' | null;
}
