import { describe, expect, it } from 'vitest';
import type { CoinopError } from '@coinop/core';
import {
  assertDecidable,
  pollOutcome,
  viewOf,
  type CliLoginView,
} from '../../src/signin/cli-login-state.js';
import {
  generateUserCode,
  normalizeUserCode,
  userCodeMatches,
} from '../../src/signin/user-code.js';
import type { CliLoginStatus } from '../../src/store/signin-cli-logins.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const login = (status: CliLoginStatus, lastPolledMs: number | null = null) => ({
  requestorId: 'r1',
  status,
  expiresAt: at(600_000),
  lastPolledAt: lastPolledMs === null ? null : at(lastPolledMs),
});
const outcome = (l: ReturnType<typeof login>, nowMs: number) => {
  const result = pollOutcome(l, at(nowMs), 5);
  return result.kind === 'collect' ? 'collect' : `${result.error.code}: ${result.error.message}`;
};

describe('CLI login state machine', () => {
  it.each([
    [
      'pending, first poll',
      login('pending'),
      0,
      'authorization_pending: login request r1 is waiting for the player to approve it in the browser',
    ],
    [
      'pending, polled 5 s ago',
      login('pending', 0),
      5000,
      'authorization_pending: login request r1 is waiting for the player to approve it in the browser',
    ],
    [
      'pending, polled 4.6 s ago (jitter)',
      login('pending', 0),
      4600,
      'authorization_pending: login request r1 is waiting for the player to approve it in the browser',
    ],
    [
      'pending, polled 4 s ago',
      login('pending', 0),
      4000,
      'slow_down: poll login request r1 at most every 5 seconds',
    ],
    ['approved, polled just now', login('approved', 0), 100, 'collect'],
    ['denied', login('denied'), 0, 'access_denied: login request r1 was rejected'],
    [
      'collected',
      login('collected'),
      0,
      'expired_token: the token of login request r1 was already handed out',
    ],
    ['pending, expired', login('pending'), 600_000, 'expired_token: login request r1 has expired'],
    [
      'approved, expired',
      login('approved'),
      600_000,
      'expired_token: login request r1 has expired',
    ],
    ['denied, expired', login('denied'), 600_000, 'expired_token: login request r1 has expired'],
  ])('poll: %s', (_name, l, nowMs, expected) => {
    expect(outcome(l, nowMs)).toBe(expected);
  });

  it.each([
    ['pending', 0, 'pending'],
    ['pending', 600_000, 'expired'],
    ['approved', 0, 'approved'],
    ['approved', 600_000, 'expired'],
    ['collected', 600_000, 'approved'],
    ['denied', 600_000, 'denied'],
  ] as [CliLoginStatus, number, CliLoginView][])('view: %s at +%i ms is %s', (status, ms, view) => {
    expect(viewOf(login(status), at(ms))).toBe(view);
  });

  it('lets only a pending, unexpired request be decided', () => {
    expect(() => assertDecidable(login('pending'), at(0))).not.toThrow();
    const codeOf = (status: CliLoginStatus, ms: number) => {
      try {
        assertDecidable(login(status), at(ms));
        return null;
      } catch (error) {
        return (error as CoinopError).code;
      }
    };
    expect(codeOf('pending', 600_000)).toBe('expired_token');
    expect(codeOf('approved', 0)).toBe('login_request_decided');
    expect(codeOf('denied', 0)).toBe('login_request_decided');
    expect(codeOf('collected', 0)).toBe('login_request_decided');
  });
});

describe('user codes', () => {
  it('are 8 letters from the RFC 8628 consonant alphabet, as XXXX-XXXX', () => {
    for (let i = 0; i < 200; i++) {
      expect(generateUserCode()).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    }
  });

  it.each([
    ['WDJB-MJHT', 'WDJB-MJHT'],
    ['wdjbmjht', 'WDJB-MJHT'],
    [' wdjb mjht ', 'WDJB-MJHT'],
    ['WDJB-MJH', null],
    ['WDJB-MJHA', null],
    ['WDJB-MJHT-X', null],
    ['', null],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalizeUserCode(input)).toBe(expected);
  });

  it('match only the same code', () => {
    expect(userCodeMatches('wdjb-mjht', 'WDJB-MJHT')).toBe(true);
    expect(userCodeMatches('WDJB-MJHB', 'WDJB-MJHT')).toBe(false);
    expect(userCodeMatches('nonsense', 'WDJB-MJHT')).toBe(false);
  });
});
