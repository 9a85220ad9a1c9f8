import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('the replay verifier settings', () => {
  it('defaults: a quarter second, 32 MB, one thread, 64 KiB replays', () => {
    expect(loadConfig({}, {}).verifier).toEqual({
      timeLimitMs: 250,
      memoryLimitMb: 32,
      workers: 1,
      replayMaxBytes: 65_536,
    });
  });

  it('takes the flags over the environment', () => {
    const config = loadConfig(
      { verifierTimeLimitMs: '500', verifierWorkers: '4' },
      { COINOP_VERIFIER_TIME_LIMIT_MS: '100', COINOP_REPLAY_MAX_BYTES: '131072' },
    );
    expect(config.verifier).toEqual({
      timeLimitMs: 500,
      memoryLimitMb: 32,
      workers: 4,
      replayMaxBytes: 131_072,
    });
  });

  it.each([
    [
      { verifierWorkers: '5' },
      '--verifier-workers (COINOP_VERIFIER_WORKERS) must be a whole number from 1 to 4, got 5',
    ],
    [
      { verifierTimeLimitMs: '0' },
      '--verifier-time-limit-ms (COINOP_VERIFIER_TIME_LIMIT_MS) must be a whole number from 10 to 10000, got 0',
    ],
    [
      { verifierMemoryLimitMb: 'lots' },
      '--verifier-memory-limit-mb (COINOP_VERIFIER_MEMORY_LIMIT_MB) must be a whole number from 4 to 1024, got lots',
    ],
    [
      { replayMaxBytes: '2000000' },
      '--replay-max-bytes (COINOP_REPLAY_MAX_BYTES) must be a whole number from 1024 to 1048576, got 2000000',
    ],
  ])('refuses %o, naming the flag', (flags, message) => {
    expect(() => loadConfig(flags, {})).toThrow(ConfigError);
    expect(() => loadConfig(flags, {})).toThrow(message);
  });
});
