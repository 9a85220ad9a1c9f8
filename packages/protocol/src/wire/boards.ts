/**
 * One player's place on a tier's board. Ranks are exact and 1-based, and the order is total:
 * best score first, an equal score ranked by who reached it first (then by player id), so no two
 * players share a rank.
 *
 * @example
 * ```ts
 * import type { BoardEntry } from '@coinop/protocol';
 * const line = (e: BoardEntry) => `#${e.rank} ${e.name} ${e.score}`;
 * ```
 */
export interface BoardEntry {
  readonly rank: number;
  readonly playerId: string;
  readonly name: string;
  /** Avatar image URL. */
  readonly avatar: string;
  /** The player's best score on the tier. */
  readonly score: number;
}

/**
 * A page of a tier's board, best first. Pass `nextCursor` back as `cursor` for the next page; it
 * is null on the last page. Each page is read in one snapshot, so its ranks agree with each
 * other; see docs/reference/boards-and-history.md for what moves between pages.
 *
 * @example
 * ```ts
 * import type { BoardPage } from '@coinop/protocol';
 * const isLast = (page: BoardPage) => page.nextCursor === null;
 * ```
 */
export interface BoardPage {
  readonly leaderboardId: string;
  /** How many players have a score on the tier, when the page was read. */
  readonly players: number;
  readonly entries: readonly BoardEntry[];
  readonly nextCursor: string | null;
}

/**
 * A player's place on a tier's board with the players just above and below, read in one
 * snapshot. `player` is null (and the lists empty) when the player has no score on the tier.
 *
 * @example
 * ```ts
 * import type { BoardAround } from '@coinop/protocol';
 * const rankOf = (around: BoardAround) => around.player?.rank ?? null;
 * ```
 */
export interface BoardAround {
  readonly leaderboardId: string;
  readonly players: number;
  /** Up to `count` players ranked just above, best first. */
  readonly above: readonly BoardEntry[];
  readonly player: BoardEntry | null;
  /** Up to `count` players ranked just below, best first. */
  readonly below: readonly BoardEntry[];
}

/** What a line of a player's activity records. */
export const ActivityKinds = [
  'play',
  'payout',
  'returned',
  'payment',
  'deposit',
  'withdrawal',
  'grant',
  'prize',
] as const;
export type ActivityKind = (typeof ActivityKinds)[number];

/** The game (and tier) an activity line belongs to. */
export interface ActivityGame {
  readonly gameId: string;
  readonly gameName: string;
}

/** A play the player opened, with its score once scored. */
export interface PlayActivity extends ActivityGame {
  readonly kind: 'play';
  /** The play id. */
  readonly id: string;
  readonly at: string;
  readonly leaderboardId: string;
  readonly tierName: string;
  /** HST the play cost, as an exact decimal string ("0" for a free play). */
  readonly cost: string;
  readonly status: 'open' | 'scored' | 'expired' | 'voided';
  /** The score submitted; null until scored. */
  readonly score: number | null;
  /** The game's unit to show after the score, e.g. "ms"; empty for none. */
  readonly scoreUnit: string;
  /** The player's rank on the tier when the score was recorded; null until scored. */
  readonly rank: number | null;
  /**
   * When the play's time to be scored ends (server time, the play TTL after it opened): an open
   * play not scored by then settles without a score (docs/concepts/plays-and-settlement.md).
   */
  readonly expiresAt: string;
  /**
   * Where the cost came from: `balance` (the arcade balance: it moved the balance) or `wallet`
   * (locked from the player's wallet on chain: the arcade balance did not move).
   */
  readonly paidFrom: 'balance' | 'wallet';
  /** A play locked from the wallet: the lock's transaction; null otherwise. */
  readonly txHash: string | null;
  /**
   * What review made of the play's score (issue 30, docs/reference/review-queue.md): `voided`
   * (it left the board), `kept` (reviewed and approved), or `refused` (an attempt the arcade's
   * score rules refused; the reason is the refusal's message). Null when none.
   */
  readonly review: {
    readonly outcome: 'voided' | 'kept' | 'refused';
    readonly reason: string;
  } | null;
}

/** HST the player received as a leader when someone else's play settled. */
export interface PayoutActivity extends ActivityGame {
  readonly kind: 'payout';
  /** The payout transfer id. */
  readonly id: string;
  readonly at: string;
  readonly amount: string;
  readonly leaderboardId: string;
  readonly tierName: string;
  /** The play whose cost paid it. */
  readonly playId: string;
  /**
   * Where the payout stands (issue 30, docs/concepts/plays-and-settlement.md#hold-and-void):
   * `paid` (spendable), `held` (pending until `releaseAt`), or `voided` (reversed by the void of
   * a score on the board before its hold ended; `voidReason` says why, and the play's payouts
   * were settled again, each a line of its own).
   */
  readonly status: 'paid' | 'held' | 'voided';
  /** When a held payout becomes spendable; null otherwise. */
  readonly releaseAt: string | null;
  /** The reason given for the score void that reversed it; null otherwise. */
  readonly voidReason: string | null;
  /**
   * Where it goes: `balance` (the arcade balance) or `wallet` (a play locked on chain pays its
   * leaders in the player's wallet, by the vault's settlement: the arcade balance does not move).
   */
  readonly paidTo: 'balance' | 'wallet';
  /** Paid to the wallet: the vault's settlement transaction, once sent; null otherwise. */
  readonly txHash: string | null;
}

/**
 * The leaders' part of what the player paid, back to them because no leader could claim it
 * (docs/concepts/plays-and-settlement.md): their play on a board nobody led (or whose every
 * leader's score was voided within the hold), or their entries in a round that closed with
 * nobody ranked. Its statuses and where it goes read as a payout's.
 */
export interface ReturnedActivity extends ActivityGame {
  readonly kind: 'returned';
  /** The transfer id. */
  readonly id: string;
  readonly at: string;
  readonly amount: string;
  /** The tier, or the round's board. */
  readonly leaderboardId: string;
  readonly tierName: string;
  /** The play whose leaders' part it is; null for a round's entries returned at its close. */
  readonly playId: string | null;
  readonly status: 'paid' | 'held' | 'voided';
  readonly releaseAt: string | null;
  readonly voidReason: string | null;
  readonly paidTo: 'balance' | 'wallet';
  readonly txHash: string | null;
}

/** HST the player paid a game's developer in the game (spec 4.10 hstTransfer). */
export interface PaymentActivity extends ActivityGame {
  readonly kind: 'payment';
  /** The payment transfer id. */
  readonly id: string;
  readonly at: string;
  readonly amount: string;
}

/** HST deposited into the vault on chain and credited to the player. */
export interface DepositActivity {
  readonly kind: 'deposit';
  /** The crediting transfer id. */
  readonly id: string;
  readonly at: string;
  readonly amount: string;
  /** The deposit's transaction. */
  readonly txHash: string | null;
}

/** HST the player withdrew to a wallet, and where the withdrawal stands. */
export interface WithdrawalActivity {
  readonly kind: 'withdrawal';
  /** The withdrawal id. */
  readonly id: string;
  readonly at: string;
  readonly amount: string;
  readonly to: string;
  readonly status: 'queued' | 'sent' | 'paid' | 'failed';
  /** The vault transaction that paid it, once sent. */
  readonly txHash: string | null;
}

/** HST minted to the player: the development faucet or an operator's grant. */
export interface GrantActivity {
  readonly kind: 'grant';
  /** The mint transfer id. */
  readonly id: string;
  readonly at: string;
  readonly amount: string;
}

/** A tournament prize: HST paid to the player for a place when a round closed. */
export interface PrizeActivity extends ActivityGame {
  readonly kind: 'prize';
  /** The prize transfer id. */
  readonly id: string;
  readonly at: string;
  readonly amount: string;
  /** The round's board (the round's id) and its name, e.g. "Weekly Cup #3". */
  readonly leaderboardId: string;
  readonly tierName: string;
  /** The place paid: 1 for the winner. */
  readonly place: number;
}

export type ActivityItem =
  | PlayActivity
  | PayoutActivity
  | ReturnedActivity
  | PaymentActivity
  | DepositActivity
  | WithdrawalActivity
  | GrantActivity
  | PrizeActivity;

/**
 * A page of the signed-in player's activity, newest first. Pass `nextCursor` back as `cursor`
 * for older lines; it is null on the last page.
 *
 * @example
 * ```ts
 * import type { ActivityPage } from '@coinop/protocol';
 * const plays = (page: ActivityPage) => page.items.filter((i) => i.kind === 'play');
 * ```
 */
export interface ActivityPage {
  readonly items: readonly ActivityItem[];
  readonly nextCursor: string | null;
}
