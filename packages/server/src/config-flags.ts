import { ConfigError, FLAG_ENV, describe } from './config-values.js';

/** Command-line values (already parsed) by their config key, as `loadConfig` takes them. */
export type ConfigInput = Partial<Record<keyof typeof FLAG_ENV, string | boolean | undefined>>;

/** A config key's value read as text, a bounded whole number, or a boolean. */
export interface FlagReader {
  /** The value as given; null when unset (or given as a bare flag). */
  text(key: keyof typeof FLAG_ENV): string | null;
  /** A whole number from `min` to `max`, `fallback` when unset; ConfigError naming the flag. */
  int(key: keyof typeof FLAG_ENV, fallback: number, min: number, max: number): number;
  /** true, false (unset), or a boolean word; ConfigError naming the flag otherwise. */
  bool(key: keyof typeof FLAG_ENV): boolean;
}

/** Reads each key from its command-line flag, else its environment variable (empty is unset). */
export function readFlags(flags: ConfigInput, env: Record<string, string | undefined>): FlagReader {
  const pick = (key: keyof typeof FLAG_ENV): string | boolean | undefined => {
    const fromFlag = flags[key];
    if (fromFlag !== undefined) return fromFlag;
    const fromEnv = env[FLAG_ENV[key][1]];
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
  };
  const text = (key: keyof typeof FLAG_ENV): string | null => {
    const v = pick(key);
    return v === undefined || typeof v === 'boolean' ? null : v;
  };
  const int = (key: keyof typeof FLAG_ENV, fallback: number, min: number, max: number) => {
    const v = pick(key);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new ConfigError(
        `${describe(key)} must be a whole number from ${min} to ${max}, got ${String(v)}`,
      );
    }
    return n;
  };
  const bool = (key: keyof typeof FLAG_ENV): boolean => {
    const v = pick(key);
    if (v === undefined) return false;
    if (typeof v === 'boolean') return v;
    if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
    throw new ConfigError(`${describe(key)} must be true or false, got ${v}`);
  };
  return { text, int, bool };
}
