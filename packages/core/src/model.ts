import type { ScoreDisplay } from './leaderboards/rank-key.js';
import type { Units } from './money.js';
import type { ScoreRules, TierScoreRules } from './plays/score-rules.js';

/** A leaderboard tier. Immutable once created, so the play path may cache it. */
export interface Leaderboard {
  readonly id: string;
  readonly gameId: string;
  readonly name: string;
  readonly costUnits: Units;
  readonly leadersMax: number;
  readonly position: number;
  /**
   * Seconds this tier's payouts stay pending before they are spendable; null or absent: the
   * game's (`effectivePayoutHoldSeconds`).
   */
  readonly payoutHoldSeconds?: number | null | undefined;
  /** Set when the board is a tournament's round (docs/concepts/tournaments.md); absent for a tier. */
  readonly round?: RoundRules | undefined;
  /** The tier's overrides of its game's score rules (issue 30); absent when it overrides none. */
  readonly scoreRules?: TierScoreRules | undefined;
}

/** What the play and score path needs of a tournament round; fixed when the round opens. */
export interface RoundRules {
  readonly tournamentId: string;
  readonly number: number;
  readonly startsAt: Date;
  readonly endsAt: Date;
  /** At most this many players enter the round; null: no limit. */
  readonly maxEntrants: number | null;
  /** At most this many plays per player in the round; null: no limit. */
  readonly maxAttempts: number | null;
}

/** What the play and score path needs of a game; read from a cache, never changed by a play. */
export interface GameRef {
  readonly id: string;
  readonly arcadeId: string;
  readonly developerId: string;
  readonly developerAccountId: string;
  readonly arcadeAccountId: string;
  readonly scoreDisplay: ScoreDisplay;
  readonly leaderboards: readonly Leaderboard[];
  /** Seconds the game's payouts stay pending; null or absent: the operator's default. */
  readonly payoutHoldSeconds?: number | null | undefined;
  /**
   * The game's tournament rounds not yet closed (boards with `round` set): plays may name them,
   * but they are not tiers, so nothing that lists `leaderboards` sees them.
   */
  readonly rounds?: readonly Leaderboard[] | undefined;
  /**
   * The game's score rules (issue 30). Absent when neither the game nor any of its tiers sets
   * one: such a game's scores take the path they always did, with no rule to read.
   */
  readonly scoreRules?: ScoreRules | undefined;
}

/** `voided`: the operator suspended the game while the play was open; its lock was returned. */
export const PlayStatuses = ['open', 'scored', 'expired', 'voided'] as const;
export type PlayStatus = (typeof PlayStatuses)[number];

export interface Play {
  readonly id: string;
  readonly arcadeId: string;
  readonly gameId: string;
  readonly developerId: string;
  readonly leaderboardId: string;
  readonly playerId: string;
  readonly costUnits: Units;
  /** The pending transfer that locked the cost into escrow; null for a free tier. */
  readonly lockTransferId: string | null;
  /**
   * For a play locked on chain (the player's wallet called the vault's `lockPlay`): the ledger
   * account of that vault, which the lock is drawn on and the payouts leave through. Null for a
   * play locked from the player's balance.
   */
  readonly vaultAccountId: string | null;
  /** Players who led the board when the play began; they share its payout. */
  readonly leaderPlayerIds: readonly string[];
  readonly status: PlayStatus;
  readonly expiresAt: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface Leader {
  readonly playerId: string;
  readonly score: number;
  readonly name: string;
  readonly avatar: string;
}

export interface ScoreResult {
  readonly id: string;
  readonly playId: string;
  readonly score: number;
  readonly leaderRank: number;
  readonly isWinner: boolean;
  readonly leaders: readonly Leader[];
  readonly createdAt: Date;
}
