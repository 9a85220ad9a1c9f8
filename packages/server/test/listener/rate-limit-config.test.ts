import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { runCli } from '../cli/run-cli.js';

describe('rate-limit and several-process settings in config', () => {
  it('defaults: every group limited, counts per process, game reads a second behind', () => {
    const config = loadConfig({}, {});
    expect(config.rateLimits).toEqual({
      signin: 60,
      token: 60,
      plays: 600_000,
      'player-plays': 120,
      faucet: 10,
      profile: 10,
      registration: 30,
      'verifier-checks': 60,
      'admin-failures': 10,
    });
    expect(config.redisUrl).toBeNull();
    expect(config.gameCacheTtlMs).toBe(1000);
  });

  it('sets groups from the flag (a comma list, repeats joined) over the environment', () => {
    const config = loadConfig(
      { rateLimits: 'faucet=5, plays=0', redisUrl: 'rediss://:pw@redis.internal:6380/2' },
      {
        COINOP_RATE_LIMITS: 'token=1',
        COINOP_REDIS_URL: 'redis://ignored',
        COINOP_GAME_CACHE_TTL_MS: '600000',
      },
    );
    expect(config.rateLimits).toMatchObject({ faucet: 5, plays: 0, token: 60, signin: 60 });
    expect(config.redisUrl).toBe('rediss://:pw@redis.internal:6380/2');
    expect(config.gameCacheTtlMs).toBe(600_000);
    expect(loadConfig({}, { COINOP_RATE_LIMITS: 'token=1' }).rateLimits.token).toBe(1);
  });

  it.each([
    [
      { rateLimits: 'faucets=5' },
      /--rate-limit \(COINOP_RATE_LIMITS\) takes name=requests-a-minute with a name among signin, token, plays, player-plays, faucet, profile, registration, verifier-checks, admin-failures \(0 turns it off\), got faucets=5$/,
    ],
    [{ rateLimits: 'faucet=-1' }, /got faucet=-1$/],
    [{ rateLimits: 'faucet=1.5' }, /got faucet=1\.5$/],
    [{ rateLimits: 'faucet' }, /got faucet$/],
    [{ rateLimits: 'faucet=1,' }, /got nothing$/],
    [
      { rateLimits: 'plays=100000001' },
      /plays must be at most 100000000 a minute \(0 turns it off\), got 100000001$/,
    ],
    [
      { redisUrl: 'localhost:6379' },
      /^--redis-url \(COINOP_REDIS_URL\) must be a redis:\/\/ or rediss:\/\/ URL, got a localhost: URL$/,
    ],
    [
      { redisUrl: 'http://:secret@redis' },
      /^--redis-url \(COINOP_REDIS_URL\) must be a redis:\/\/ or rediss:\/\/ URL, got a http: URL$/,
    ],
    [
      { redisUrl: 'not a url' },
      /^--redis-url \(COINOP_REDIS_URL\) must be a redis:\/\/ or rediss:\/\/ URL$/,
    ],
    [
      { gameCacheTtlMs: '-1' },
      /^--game-cache-ttl-ms \(COINOP_GAME_CACHE_TTL_MS\) must be a whole number from 0 to 86400000, got -1$/,
    ],
  ])('refuses %o, naming the flag', (flags, message) => {
    expect(() => loadConfig(flags, {})).toThrow(ConfigError);
    expect(() => loadConfig(flags, {})).toThrow(message);
  });

  it('never echoes a Redis URL, which may carry a password', () => {
    expect(() => loadConfig({ redisUrl: 'http://user:hunter2@redis' }, {})).not.toThrow(/hunter2/);
  });

  it('serve --help lists the flags with their variables', async () => {
    const { code, stdout } = await runCli(['serve', '--help']);
    expect(code).toBe(0);
    const help = stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--rate-limit <name=n>');
    expect(help).toContain('[env COINOP_RATE_LIMITS]');
    expect(help).toContain('--redis-url <url>');
    expect(help).toContain('[env COINOP_REDIS_URL]');
    expect(help).toContain('--game-cache-ttl-ms <ms>');
  });
});
