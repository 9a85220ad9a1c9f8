import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('sign-in settings in config', () => {
  it('defaults: both listeners, auth on 8081, issuer and namespace from the listen address', () => {
    const config = loadConfig({}, {});
    expect({
      services: config.services,
      authPort: config.authPort,
      authIssuer: config.authIssuer,
      claimsNamespace: config.claimsNamespace,
      playerTokenTtlSeconds: config.playerTokenTtlSeconds,
      keyRotationDays: config.keyRotationDays,
      webOrigins: config.webOrigins,
      chainRpcUrl: config.chainRpcUrl,
    }).toEqual({
      services: ['api', 'auth', 'web'],
      authPort: 8081,
      authIssuer: '127.0.0.1:8081',
      claimsNamespace: '127.0.0.1',
      playerTokenTtlSeconds: 86_400,
      keyRotationDays: 30,
      webOrigins: [],
      chainRpcUrl: null,
    });
  });

  it('reads flags over the environment', () => {
    const config = loadConfig(
      {
        services: 'auth',
        authIssuer: 'Auth.Example.com',
        webOrigins: 'https://arcade.example.com/,http://localhost:5173',
      },
      {
        COINOP_AUTH_PORT: '9000',
        COINOP_AUTH_ISSUER: 'ignored.example.com',
        COINOP_CLAIMS_NAMESPACE: 'hastearcade.com',
        COINOP_PLAYER_TOKEN_TTL: '3600',
        COINOP_KEY_ROTATION_DAYS: '7',
        COINOP_CHAIN_RPC_URL: 'https://rpc.example.com/v1',
      },
    );
    expect(config).toMatchObject({
      services: ['auth'],
      authPort: 9000,
      authIssuer: 'auth.example.com',
      claimsNamespace: 'hastearcade.com',
      playerTokenTtlSeconds: 3600,
      keyRotationDays: 7,
      webOrigins: ['https://arcade.example.com', 'http://localhost:5173'],
      chainRpcUrl: 'https://rpc.example.com/v1',
    });
    expect(loadConfig({ host: '0.0.0.0' }, {}).authIssuer).toBe('localhost:8081');
    expect(loadConfig({ authIssuer: 'auth.example.com' }, {}).claimsNamespace).toBe(
      'auth.example.com',
    );
  });

  it.each([
    [
      { authIssuer: 'https://auth.example.com' },
      '--auth-issuer (COINOP_AUTH_ISSUER) must be host[:port]',
    ],
    [
      { authIssuer: 'auth.example.com/path' },
      '--auth-issuer (COINOP_AUTH_ISSUER) must be host[:port]',
    ],
    [{ authIssuer: 'coinop' }, '--auth-issuer (COINOP_AUTH_ISSUER) must be host[:port]'],
    [{ claimsNamespace: 'https://x.com/' }, '--claims-namespace (COINOP_CLAIMS_NAMESPACE) must be'],
    [{ services: 'api,www' }, '--services (COINOP_SERVICES) must be a comma list of api, auth'],
    [{ services: '' }, '--services (COINOP_SERVICES) must be a comma list of api, auth'],
    [{ webOrigins: 'arcade.example.com' }, '--web-origin (COINOP_WEB_ORIGINS) takes origins'],
    [
      { webOrigins: 'https://a.example.com/app' },
      '--web-origin (COINOP_WEB_ORIGINS) takes origins',
    ],
    [{ chainRpcUrl: 'ws://rpc' }, '--chain-rpc-url (COINOP_CHAIN_RPC_URL) must be an http(s) URL'],
    [
      { authPort: '70000' },
      '--auth-port (COINOP_AUTH_PORT) must be a whole number from 0 to 65535',
    ],
    [
      { playerTokenTtlSeconds: '10' },
      '--player-token-ttl (COINOP_PLAYER_TOKEN_TTL) must be a whole number from 60',
    ],
    [
      { keyRotationDays: '0' },
      '--key-rotation-days (COINOP_KEY_ROTATION_DAYS) must be a whole number from 1',
    ],
    [{ trustProxy: '0' }, '--trust-proxy (COINOP_TRUST_PROXY) takes 1 to 10 hops, got 0'],
    [
      { trustProxy: '10.0.0.0/8,proxy.local' },
      '--trust-proxy (COINOP_TRUST_PROXY) takes none, loopback, addresses and CIDRs (10.0.0.0/8), or a hop count; got proxy.local',
    ],
  ])('refuses %o naming the flag', (flags, message) => {
    expect(() => loadConfig(flags, {})).toThrow(ConfigError);
    expect(() => loadConfig(flags, {})).toThrow(message);
  });
});

describe('whose X-Forwarded-For to believe', () => {
  it('believes nobody by default, and reads names, addresses, CIDRs and hop counts', () => {
    expect(loadConfig({}, {}).trustProxy).toBe(false);
    expect(loadConfig({ trustProxy: 'none' }, {}).trustProxy).toBe(false);
    expect(loadConfig({}, { COINOP_TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
    expect(loadConfig({ trustProxy: '10.0.0.0/8, 192.0.2.7,::1' }, {}).trustProxy).toBe(
      '10.0.0.0/8,192.0.2.7,::1',
    );
    expect(loadConfig({ trustProxy: '2' }, {}).trustProxy).toBe(2);
  });
});

describe("the API's public URL in config", () => {
  it('defaults to the listen address, a wildcard host read as this machine', () => {
    expect(loadConfig({}, {}).publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ host: '0.0.0.0', apiPort: '9090' }, {}).publicUrl).toBe(
      'http://127.0.0.1:9090',
    );
    expect(loadConfig({ host: '::1' }, {}).publicUrl).toBe('http://[::1]:8080');
  });

  it('takes --public-url over COINOP_PUBLIC_URL, without a trailing slash', () => {
    expect(
      loadConfig(
        { publicUrl: 'https://api.arcade.example.com/' },
        { COINOP_PUBLIC_URL: 'https://ignored.example.com' },
      ).publicUrl,
    ).toBe('https://api.arcade.example.com');
    expect(loadConfig({}, { COINOP_PUBLIC_URL: 'https://x.example.com/coinop' }).publicUrl).toBe(
      'https://x.example.com/coinop',
    );
  });

  it.each(['ftp://x.example.com', 'x.example.com', 'https://x.example.com/?a=1'])(
    'refuses %s naming the flag',
    (publicUrl) => {
      expect(() => loadConfig({ publicUrl }, {})).toThrow(
        `--public-url (COINOP_PUBLIC_URL) must be an http(s) URL like https://api.arcade.example.com, got ${publicUrl}`,
      );
    },
  );
});
