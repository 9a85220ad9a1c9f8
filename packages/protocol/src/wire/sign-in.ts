/**
 * Wallet sign-in on the sign-in service (EIP-4361, Sign-In with Ethereum): a challenge to sign,
 * then a web session token for the arcade web app, renewed before it expires.
 */

/**
 * The body of `POST /wallet/challenge`.
 *
 * @example
 * ```ts
 * import type { WalletChallengeRequest } from '@coinop/protocol';
 * const body: WalletChallengeRequest = { address: '0x52908400098527886E0F7030069857D2E4169EE7' };
 * ```
 */
export interface WalletChallengeRequest {
  /** 0x and 40 hex digits; an EIP-55 checksum is checked when the letters are mixed case. */
  address: string;
}

/**
 * The EIP-4361 message the wallet signs with `personal_sign`.
 *
 * @example
 * ```ts
 * import type { WalletChallenge } from '@coinop/protocol';
 * const toSign = (challenge: WalletChallenge) => challenge.message;
 * ```
 */
export interface WalletChallenge {
  readonly message: string;
  readonly nonce: string;
  readonly expiresAt: string;
}

/**
 * The body of `POST /wallet/verify`: the challenge's message and the wallet's signature of it.
 *
 * @example
 * ```ts
 * import type { WalletSignInRequest } from '@coinop/protocol';
 * const body: WalletSignInRequest = { message: 'arcade.example.com wants you to sign in…',
 *   signature: '0xabcd' };
 * ```
 */
export interface WalletSignInRequest {
  message: string;
  /** personal_sign signature, 0x-prefixed hex. */
  signature: string;
}

/**
 * A web session token (RS256 JWT, audience coinop:web): from `POST /wallet/verify`, and again
 * from `POST /session/renew` before it expires.
 *
 * @example
 * ```ts
 * import type { SessionToken } from '@coinop/protocol';
 * const expiresAtMs = (token: SessionToken) => Date.now() + token.expires_in * 1000;
 * ```
 */
export interface SessionToken {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  /** Lifetime of access_token in seconds. */
  readonly expires_in: number;
  readonly playerId: string;
}

/**
 * What approving or rejecting a command-line login answers (`POST /cli/{requestorId}/approve`
 * and `/reject`, with the player's web session).
 *
 * @example
 * ```ts
 * import type { CliLoginDecision } from '@coinop/protocol';
 * const done = (d: CliLoginDecision) =>
 *   d.grantedDailyLimit === null ? 'Signed in.' : `Signed in; up to ${d.grantedDailyLimit} HST a day.`;
 * ```
 */
export interface CliLoginDecision {
  readonly status: 'approved' | 'denied';
  /**
   * The daily allowance this approval granted the game the login names, HST as an exact decimal
   * string (`formatHst`), to show as it is; null when it granted none.
   */
  readonly grantedDailyLimit: string | null;
}
