/**
 * The operator's list of ledger transfers, `GET /admin/ledger/transfers` (issue 31). Kept apart
 * from `admin.ts` so the list's names read together.
 */

/**
 * A transfer's ledger operation: `posted` moves HST at once, `pending` reserves it, and
 * `post_pending` / `void_pending` settle or release a pending transfer in full.
 *
 * @example
 * ```ts
 * import { LedgerTransferKinds } from '@coinop/protocol';
 * console.log(LedgerTransferKinds.includes('posted')); // true
 * ```
 */
export const LedgerTransferKinds = ['posted', 'pending', 'post_pending', 'void_pending'] as const;
export type LedgerTransferKind = (typeof LedgerTransferKinds)[number];

/**
 * Why HST moved, as each transfer records it (docs/concepts/ledger.md).
 *
 * @example
 * ```ts
 * import { LedgerTransferReasons } from '@coinop/protocol';
 * console.log(LedgerTransferReasons[0]); // "mint"
 * ```
 */
export const LedgerTransferReasons = [
  'mint',
  'play_lock',
  'play_settle',
  'payout_leader',
  'payout_developer',
  'payout_arcade',
  'payment',
  'play_void',
  'deposit',
  'withdrawal',
  /** A play's cost locked in a chain vault, drawn on the vault's account into the escrow. */
  'chain_play_lock',
  /** A payee's share of a play locked on chain, reserved until the vault pays it to them. */
  'chain_payout',
  /**
   * A settled play's share given back to the vault's account: the play's lock ended on chain
   * without the vault paying it out (its player reclaimed it).
   */
  'chain_reversal',
  /** A round's guarantee, from its creator into the round's pool. */
  'tournament_guarantee',
  /** The leaders' part of a settled round play, into the round's pool. */
  'tournament_pool',
  /** A place's prize, from the pool to the player. */
  'tournament_prize',
  /** A held payout posted when its hold ended: now spendable by its payee. */
  'payout_release',
  /** A held payout voided because a score it rested on was voided; re-settled at once. */
  'payout_void',
  /** What dividing the pool left over, to the arcade. */
  'tournament_remainder',
  /** A round nobody ranked on: its guarantee back to whoever put it in. */
  'tournament_refund',
  /**
   * A round nobody ranked on: the fees' part of its pool to the developer. No longer written
   * (a developer may void scores, so it would decide who is paid; see `tournament_returned`);
   * listed for the transfers recorded before.
   */
  'tournament_unclaimed',
  /**
   * The leaders' part of a play no leader could claim (nobody led the board when it began, or
   * every leader's score was voided), back to the player who paid it.
   */
  'payout_returned',
  /** A round nobody ranked on: each entrant's part of its pool back to them. */
  'tournament_returned',
] as const;
export type LedgerTransferReason = (typeof LedgerTransferReasons)[number];

/**
 * Who an account belongs to: a player, a developer, the arcade, a play's escrow, the mint, a
 * chain vault, or a tournament round's prize pool.
 *
 * @example
 * ```ts
 * import { LedgerAccountKinds } from '@coinop/protocol';
 * console.log(LedgerAccountKinds.length); // 7
 * ```
 */
export const LedgerAccountKinds = [
  'player',
  'developer',
  'arcade',
  'escrow',
  'mint',
  'vault',
  /** A tournament round's prize pool (its id is the round's). */
  'pool',
] as const;
export type LedgerAccountKind = (typeof LedgerAccountKinds)[number];

/**
 * One side of a transfer: the account and its owner where one is known.
 *
 * @example
 * ```ts
 * import type { LedgerAccount } from '@coinop/protocol';
 * const href = (a: LedgerAccount) => (a.playerId === null ? null : `/admin/players/${a.playerId}`);
 * ```
 */
export interface LedgerAccount {
  readonly accountId: string;
  readonly kind: LedgerAccountKind;
  /**
   * What a person reads: a player's display name, a developer's wallet, the arcade's name, "Mint",
   * a vault's address and chain, a round's tournament and number, or "Escrow of play …".
   */
  readonly label: string;
  /** The player who owns it; null for any other kind. */
  readonly playerId: string | null;
  /** The developer who owns it; null for any other kind. */
  readonly developerId: string | null;
}

/**
 * One transfer as the operator's list answers it; the amount is exact HST text.
 *
 * @example
 * ```ts
 * import type { LedgerTransfer } from '@coinop/protocol';
 * const line = (t: LedgerTransfer) => `${t.debit.label} → ${t.credit.label}: ${t.amount} HST`;
 * ```
 */
export interface LedgerTransfer {
  readonly id: string;
  readonly kind: LedgerTransferKind;
  readonly reason: LedgerTransferReason;
  readonly debit: LedgerAccount;
  readonly credit: LedgerAccount;
  /** HST as an exact decimal string ("0" for a pending transfer settled in full). */
  readonly amount: string;
  /** The play it belongs to, if any. */
  readonly playId: string | null;
  /** For `post_pending` and `void_pending`: the pending transfer it settles. */
  readonly pendingId: string | null;
  readonly createdAt: string;
}

/**
 * A page of `GET /admin/ledger/transfers`, newest first.
 *
 * @example
 * ```ts
 * import type { LedgerTransferPage } from '@coinop/protocol';
 * const hasOlder = (page: LedgerTransferPage) => page.nextCursor !== null;
 * ```
 */
export interface LedgerTransferPage {
  readonly transfers: readonly LedgerTransfer[];
  /** Pass as `cursor` for older transfers; null on the last page. */
  readonly nextCursor: string | null;
}
