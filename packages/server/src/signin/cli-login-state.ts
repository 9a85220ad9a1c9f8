import { CoinopError } from '@coinop/core';
import type { CliLoginRecord } from '../store/signin-cli-logins.js';

/**
 * The CLI login request's state machine (spec 4.6, 4.7, after RFC 8628), pure: storage and HTTP
 * apply what these functions decide.
 *
 *   pending --approve--> approved --poll--> collected
 *   pending --reject---> denied
 *   pending/approved --time passes--> expired (derived from expires_at, never stored)
 */

/** What the approval page shows. A collected request shows as approved. */
export type CliLoginView = 'pending' | 'approved' | 'denied' | 'expired';

type LoginState = Pick<CliLoginRecord, 'requestorId' | 'status' | 'expiresAt' | 'lastPolledAt'>;

export function isExpired(login: LoginState, now: Date): boolean {
  return now.getTime() >= login.expiresAt.getTime();
}

export function viewOf(login: LoginState, now: Date): CliLoginView {
  switch (login.status) {
    case 'denied':
      return 'denied';
    case 'collected':
      return 'approved';
    case 'approved':
      return isExpired(login, now) ? 'expired' : 'approved';
    case 'pending':
      return isExpired(login, now) ? 'expired' : 'pending';
  }
}

/**
 * Polls arriving a little early because of network jitter are not "too fast": RFC 8628 asks for
 * `interval` seconds between requests as the client measures them.
 */
export const POLL_JITTER_MS = 500;

/**
 * The answer to one poll: `collect` when the token may be handed out now; otherwise the RFC 8628
 * error to throw. Order: expiry, then a decision, then the polling pace.
 */
export function pollOutcome(
  login: LoginState,
  now: Date,
  intervalSeconds: number,
): { kind: 'collect' } | { kind: 'error'; error: CoinopError } {
  const id = login.requestorId;
  const error = (code: ConstructorParameters<typeof CoinopError>[0], message: string) => ({
    kind: 'error' as const,
    error: new CoinopError(code, message),
  });
  if (login.status === 'collected') {
    return error('expired_token', `the token of login request ${id} was already handed out`);
  }
  if (isExpired(login, now)) return error('expired_token', `login request ${id} has expired`);
  if (login.status === 'denied') return error('access_denied', `login request ${id} was rejected`);
  if (login.status === 'approved') return { kind: 'collect' };
  const sinceLastMs =
    login.lastPolledAt === null ? Infinity : now.getTime() - login.lastPolledAt.getTime();
  if (sinceLastMs < intervalSeconds * 1000 - POLL_JITTER_MS) {
    return error('slow_down', `poll login request ${id} at most every ${intervalSeconds} seconds`);
  }
  return error(
    'authorization_pending',
    `login request ${id} is waiting for the player to approve it in the browser`,
  );
}

/** Throws unless a player may approve or reject the request now. */
export function assertDecidable(login: LoginState, now: Date): void {
  if (login.status === 'pending' && isExpired(login, now)) {
    throw new CoinopError('expired_token', `login request ${login.requestorId} has expired`);
  }
  if (login.status !== 'pending') {
    throw new CoinopError(
      'login_request_decided',
      `login request ${login.requestorId} was already ${login.status === 'denied' ? 'rejected' : 'approved'}`,
    );
  }
}
