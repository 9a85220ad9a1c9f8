import { describe, expect, it } from 'vitest';
import { resolveIssuer, resolveOptions } from '../src/options.js';

const base = {
  clientId: 'cid',
  clientSecret: 'csec',
  baseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com',
};

describe('resolveOptions', () => {
  it.each([
    // The server's default issuer is the host and port its sign-in service listens on.
    ['http://127.0.0.1:8081', undefined, 'https://127.0.0.1:8081/'],
    ['https://auth.example.com', undefined, 'https://auth.example.com/'],
    ['https://auth.example.com:443/', undefined, 'https://auth.example.com/'],
    ['https://auth.example.com/signin', undefined, 'https://auth.example.com/'],
    ['http://127.0.0.1:8081', 'auth.example.com', 'https://auth.example.com/'],
    ['http://127.0.0.1:8081', 'auth.example.com:8443', 'https://auth.example.com:8443/'],
    ['http://127.0.0.1:8081', 'https://id.example.com/', 'https://id.example.com/'],
  ])('authUrl %s with issuer %s expects iss %s', (authUrl, issuer, want) => {
    expect(resolveIssuer(new URL(authUrl), issuer)).toBe(want);
  });

  it('names the claims after the issuer host, without its port, unless told', () => {
    const derived = resolveOptions({ ...base, authUrl: 'http://127.0.0.1:8081' });
    expect(derived.claimsNamespace).toBe('127.0.0.1');
    expect(resolveOptions({ ...base, issuer: 'id.example.com:8443' }).claimsNamespace).toBe(
      'id.example.com',
    );
    expect(resolveOptions({ ...base, claimsNamespace: 'hastearcade.com' }).claimsNamespace).toBe(
      'hastearcade.com',
    );
  });

  it('fills in the defaults', () => {
    expect(resolveOptions(base)).toMatchObject({
      fetchTimeoutMs: 10_000,
      maxAttempts: 3,
      retryBaseDelayMs: 200,
      refreshAtLifeFraction: 0.8,
    });
  });

  it.each([
    [{ clientSecret: '' }, 'clientSecret must be a non-empty string'],
    [{ authUrl: 'auth.example.com' }, 'authUrl must be an http(s) URL, got auth.example.com'],
    [
      { issuer: 'auth.example.com/path' },
      'issuer must be host[:port] or https://host[:port]/, got auth.example.com/path',
    ],
    [{ fetchTimeoutMs: 0 }, 'fetchTimeoutMs must be an integer from 1 to 9007199254740991, got 0'],
    [{ maxAttempts: 11 }, 'maxAttempts must be an integer from 1 to 10, got 11'],
    [
      { retryBaseDelayMs: 1.5 },
      'retryBaseDelayMs must be an integer from 0 to 9007199254740991, got 1.5',
    ],
    [{ refreshAtLifeFraction: 0 }, 'refreshAtLifeFraction must be above 0 and at most 1, got 0'],
    [
      { refreshAtLifeFraction: 1.5 },
      'refreshAtLifeFraction must be above 0 and at most 1, got 1.5',
    ],
  ])('refuses %o with a TypeError', (override, message) => {
    expect(() => resolveOptions({ ...base, ...override })).toThrow(new TypeError(message));
  });
});
