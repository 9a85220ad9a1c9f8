import { CoinopError } from '@coinop/core';

/**
 * An RFC 3339 instant (`2026-11-28T23:30:00Z`, `2026-11-28T23:30:00.123456+01:00`) as exact
 * microseconds since the epoch: a JS Date would drop the microseconds Postgres keeps. Anything
 * else, including a day the month does not have, is a 400 naming `field`.
 */
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

export function parseInstantMicros(text: string, field: string): bigint {
  const m = INSTANT.exec(text);
  const refuse = () =>
    new CoinopError(
      'validation_failed',
      `${field} must be an RFC 3339 time such as 2026-11-28T23:30:00Z, got ${JSON.stringify(text)}`,
      { details: { field, in: 'querystring' } },
    );
  if (!m) throw refuse();
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map(Number);
  const [fraction = '', zulu, sign, offsetHours = '0', offsetMinutes = '0'] = m.slice(7);
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(ms);
  const sameFields =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  const oh = Number(offsetHours);
  const om = Number(offsetMinutes);
  if (!sameFields || year < 1970 || oh > 23 || om > 59) throw refuse();
  const offsetMs = zulu !== undefined ? 0 : (sign === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  return BigInt(ms - offsetMs) * 1000n + BigInt(fraction.padEnd(6, '0'));
}
