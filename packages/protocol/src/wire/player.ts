import type { TesterState } from './developer.js';

/**
 * The signed-in player's side of the arcade (`/player/...`, with a player token): profile and
 * balance, client-side plays, scores and payments the player's wallet approved (spec 4.10), and
 * the daily allowances of game servers (docs/concepts/consent.md). Amounts are HST, and every
 * amount the player reads (balance, faucet, payment, allowance) is an exact decimal string
 * (`formatHst`); a request takes a decimal string or a JSON number.
 */

/**
 * The signed-in player (`GET /player/me`).
 *
 * @example
 * ```ts
 * import type { PlayerProfile } from '@coinop/protocol';
 * const hasFaucet = (me: PlayerProfile) => me.faucet.amount !== '0';
 * ```
 */
export interface PlayerProfile {
  readonly playerId: string;
  /** The wallet the player signs in with; null for a player without one. */
  readonly wallet: string | null;
  readonly name: string;
  /** Avatar image URL. */
  readonly avatar: string;
  /** Spendable HST, as an exact decimal string (`"57.17027776"`). */
  readonly balance: string;
  /** HST locked in open plays, as an exact decimal string. */
  readonly pending: string;
  /**
   * HST the player has won but not yet received: payouts held until their hold ends (so that a
   * false score can be voided first), as an exact decimal string; `"0"` when none.
   */
  readonly pendingPayouts: string;
  /** When the next held payout becomes spendable (ISO 8601); null when none is held. */
  readonly pendingPayoutsReleaseAt: string | null;
  readonly faucet: {
    /** HST per faucet grant; `"0"` when the arcade has no faucet. */
    readonly amount: string;
    /**
     * Where a grant goes: `ledger`, the arcade balance; `wallet`, the player's wallet on the dev
     * chain (`coinop serve --dev-chain`), from which the player deposits it.
     */
    readonly destination: 'ledger' | 'wallet';
  };
}

/**
 * Test HST from the faucet (`POST /player/faucet`, development arcades only): minted to the
 * arcade balance, or on a dev chain to the player's wallet.
 *
 * @example
 * ```ts
 * import type { FaucetGrant } from '@coinop/protocol';
 * const grant: FaucetGrant = { destination: 'ledger', transferId: 'tr-1', balance: '100' };
 * const shown = grant.destination === 'wallet' ? grant.walletBalance : grant.balance;
 * ```
 */
export type FaucetGrant = LedgerFaucetGrant | WalletFaucetGrant;

/**
 * Test HST minted to the player's arcade balance (an arcade without a chain).
 *
 * @example
 * ```ts
 * import type { LedgerFaucetGrant } from '@coinop/protocol';
 * const grant: LedgerFaucetGrant = { destination: 'ledger', transferId: 'tr-1', balance: '100' };
 * ```
 */
export interface LedgerFaucetGrant {
  readonly destination: 'ledger';
  /** The mint transfer. */
  readonly transferId: string;
  /** The player's spendable HST after it, as an exact decimal string. */
  readonly balance: string;
}

/**
 * Test HST minted on the dev chain to the player's wallet, which the player then deposits.
 *
 * @example
 * ```ts
 * import type { WalletFaucetGrant } from '@coinop/protocol';
 * const grant: WalletFaucetGrant = {
 *   destination: 'wallet',
 *   wallet: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
 *   txHash: `0x${'ab'.repeat(32)}`,
 *   amount: '100',
 *   walletBalance: '100',
 * };
 * ```
 */
export interface WalletFaucetGrant {
  readonly destination: 'wallet';
  /** The player's wallet, which received the HST (and a little ETH for gas). */
  readonly wallet: string;
  /** The mint transaction. */
  readonly txHash: string;
  /** HST granted, as an exact decimal string. */
  readonly amount: string;
  /** HST in the wallet after it, as an exact decimal string. */
  readonly walletBalance: string;
}

/**
 * What makes a client-side request the player's own: the wallet's EIP-191 signature of
 * `approvalMessage()` for the request's fields, and the nonce it signed.
 *
 * @example
 * ```ts
 * import type { ApprovalSignature } from '@coinop/protocol';
 * const signed: ApprovalSignature = { nonce: 'n-12345678', signature: '0xabc' };
 * ```
 */
export interface ApprovalSignature {
  /** A fresh id for this approval; a retry with the same nonce repeats the result. */
  nonce: string;
  signature: string;
}

/**
 * The body of a client-side play (`POST /player/games/{gameId}/plays`); the answer is a `Play`.
 *
 * @example
 * ```ts
 * import type { ApprovedPlayRequest } from '@coinop/protocol';
 * const body: ApprovedPlayRequest = { leaderboardId: 't-1', nonce: 'n-12345678',
 *   signature: '0xabc' };
 * ```
 */
export interface ApprovedPlayRequest extends ApprovalSignature {
  /** The tier the player chose. */
  leaderboardId: string;
}

/**
 * The body of a client-side score (`POST /player/games/{gameId}/scores`); the answer is a
 * `ScoreResult`.
 *
 * @example
 * ```ts
 * import type { ApprovedScoreRequest } from '@coinop/protocol';
 * const body: ApprovedScoreRequest = { playId: 'play-1', score: 231, nonce: 'n-12345678',
 *   signature: '0xabc' };
 * ```
 */
export interface ApprovedScoreRequest extends ApprovalSignature {
  playId: string;
  /** Finite and not negative. */
  score: number;
  /** The game's replay of the run, for its verifier (issue 30); not part of the signed text. */
  replay?: string;
}

/**
 * The body of a payment to the game's developer (`POST /player/games/{gameId}/purchases`).
 *
 * @example
 * ```ts
 * import type { ApprovedPurchaseRequest } from '@coinop/protocol';
 * const body: ApprovedPurchaseRequest = { amount: '1.5', nonce: 'n-12345678', signature: '0xabc' };
 * ```
 */
export interface ApprovedPurchaseRequest extends ApprovalSignature {
  /**
   * HST, more than 0, at most 8 decimals: an exact decimal string (`formatHst` of the base units
   * the wallet signed) or a number.
   */
  amount: string | number;
}

/**
 * A payment to the game's developer: one posted transfer.
 *
 * @example
 * ```ts
 * import type { Purchase } from '@coinop/protocol';
 * const paid: Purchase = { txid: 'tr-1', amount: '1.5' };
 * ```
 */
export interface Purchase {
  /** The ledger transfer. */
  readonly txid: string;
  /** HST paid, as an exact decimal string. */
  readonly amount: string;
}

/**
 * A player's daily allowance for a game: what its server may lock from them per UTC day. Its
 * amounts are exact decimal strings of HST (`formatHst`), every digit kept up to the largest
 * allowance, 1,000,000,000 HST: read them with `readHst`, never `Number(...)`.
 *
 * @example
 * ```ts
 * import { readHst, type Allowance } from '@coinop/protocol';
 * const isRevoked = (allowance: Allowance) => readHst(allowance.dailyLimit).units === 0n;
 * ```
 */
export interface Allowance {
  readonly gameId: string;
  readonly gameName: string;
  /** 'player': the player chose `dailyLimit`; 'default': the operator's default applies. */
  readonly source: 'player' | 'default';
  /**
   * HST a day, as an exact decimal string (`"999999999.99999999"`); null is unlimited (an
   * operator's default only); `"0"` is none or revoked.
   */
  readonly dailyLimit: string | null;
  /** HST the game's plays locked today (UTC), as an exact decimal string. */
  readonly spentToday: string;
  /** HST the game may still lock today, as an exact decimal string; null is unlimited. */
  readonly remainingToday: string | null;
  /** When the player last chose; null when they never did. */
  readonly decidedAt: string | null;
}

/**
 * The games a player allowed to charge them, and those charging them under the operator's
 * default (`GET /player/allowances`).
 *
 * @example
 * ```ts
 * import type { AllowanceList } from '@coinop/protocol';
 * const gameNames = (list: AllowanceList) => list.allowances.map((a) => a.gameName);
 * ```
 */
export interface AllowanceList {
  /**
   * The operator's default for games the player chose nothing for, HST a day as an exact decimal
   * string; `"0"` is explicit consent only, null is unlimited.
   */
  readonly defaultDailyLimit: string | null;
  readonly allowances: readonly Allowance[];
}

/**
 * The body that sets a game's daily allowance (`PUT /player/allowances/{gameId}`).
 *
 * @example
 * ```ts
 * import type { AllowanceRequest } from '@coinop/protocol';
 * const body: AllowanceRequest = { dailyLimit: '7.5' };
 * ```
 */
export interface AllowanceRequest {
  /**
   * HST per UTC day, at most 8 decimals; 0 revokes. A decimal string keeps every digit; a JSON
   * number is still taken (older clients), but loses digits past about 15 significant ones.
   */
  dailyLimit: number | string;
}

/**
 * An invitation to test a game, as the invited player sees it (`GET /player/testing`): the game,
 * the developer who invited them, and where it stands. Accepting lets the unpublished game charge
 * the player (docs/concepts/consent.md, "Testers").
 *
 * @example
 * ```ts
 * import type { TestingInvitation } from '@coinop/protocol';
 * const waiting = (i: TestingInvitation) => i.state === 'invited';
 * ```
 */
export interface TestingInvitation {
  readonly gameId: string;
  readonly gameName: string;
  /** Whether the operator published the game: testers matter only before. */
  readonly published: boolean;
  /** The inviting developer's wallet, lower-case. */
  readonly developerWallet: string;
  /** The developer wallet's name in the arcade; null when it never signed in to play. */
  readonly developerName: string | null;
  /**
   * The most one play of the game costs now (its highest tier, or an open round's entry fee),
   * HST as a decimal string written from base units; null when it has no board. The developer
   * may change prices or add tiers; a tester's daily allowance (`dailyLimit`) bounds what all
   * plays together may lock a day.
   */
  readonly highestPlayCost: string | null;
  /**
   * The daily allowance the player chose for the game (HST, a decimal string written from base
   * units; "0" once revoked): accepting sets it, the game's page changes it. Null when they chose
   * none: the operator's default applies. Its server's plays, published or not, count against it.
   */
  readonly dailyLimit: string | null;
  readonly state: TesterState;
  readonly invitedAt: string;
  /** When the player last answered; null while the invitation waits. */
  readonly answeredAt: string | null;
}

/**
 * The signed-in player's invitations to test games, waiting ones first.
 *
 * @example
 * ```ts
 * import type { TestingInvitationList } from '@coinop/protocol';
 * const waiting = (list: TestingInvitationList) =>
 *   list.invitations.filter((i) => i.state === 'invited').length;
 * ```
 */
export interface TestingInvitationList {
  readonly invitations: readonly TestingInvitation[];
}
