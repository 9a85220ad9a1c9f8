import { ConfigError, describe } from './config-values.js';

/**
 * The rate-limited groups of routes (docs/reference/rate-limits.md), each counted per minute
 * for one key: a client address, a game client, a player or a developer.
 */
export const RATE_LIMITS = [
  'signin',
  'token',
  'plays',
  'player-plays',
  'faucet',
  'profile',
  'registration',
  'verifier-checks',
  'admin-failures',
] as const;
export type RateLimitName = (typeof RATE_LIMITS)[number];
/** Requests a minute for each group; 0 turns a group's limit off. */
export type RateLimits = Readonly<Record<RateLimitName, number>>;

/** The most any limit may be set to: beyond it a limit is better turned off (0). */
const RATE_LIMIT_MAX = 100_000_000;

/** `name=n` pairs, comma-separated, over the defaults: `--rate-limit faucet=5,token=120`. */
export function parseRateLimits(value: string | null, defaults: RateLimits): RateLimits {
  const limits: Record<RateLimitName, number> = { ...defaults };
  if (value === null) return limits;
  for (const part of value.split(',').map((p) => p.trim())) {
    const match = /^([a-z-]+)=(\d+)$/.exec(part);
    const name = match?.[1] as RateLimitName | undefined;
    if (!match || name === undefined || !RATE_LIMITS.includes(name)) {
      throw new ConfigError(
        `${describe('rateLimits')} takes name=requests-a-minute with a name among ` +
          `${RATE_LIMITS.join(', ')} (0 turns it off), got ${part === '' ? 'nothing' : part}`,
      );
    }
    const perMinute = Number(match[2]);
    if (perMinute > RATE_LIMIT_MAX) {
      throw new ConfigError(
        `${describe('rateLimits')}: ${name} must be at most ${RATE_LIMIT_MAX} a minute (0 turns ` +
          `it off), got ${perMinute}`,
      );
    }
    limits[name] = perMinute;
  }
  return limits;
}
