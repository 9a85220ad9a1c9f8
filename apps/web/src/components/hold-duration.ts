import { countText } from '@coinop/protocol';

/**
 * A payout hold in words a person reads at a glance (issue 30): 86400 → "24 h", 600 → "10 min",
 * 5400 → "1 h 30 min", 604800 → "7 days", 45 → "45 s". Holds are whole seconds, at most 30 days.
 */
export function holdDuration(seconds: number): string {
  if (seconds <= 0) return 'none';
  const DAY = 86_400;
  // Up to three days in hours ("24 h", "48 h"): what an operator says of a review window.
  if (seconds % DAY === 0 && seconds > 3 * DAY) return countText(seconds / DAY, 'day');
  const parts: string[] = [];
  let rest = seconds;
  if (rest > 3 * DAY) {
    parts.push(countText(Math.floor(rest / DAY), 'day'));
    rest %= DAY;
  }
  const hours = Math.floor(rest / 3600);
  const minutes = Math.floor((rest % 3600) / 60);
  const secs = rest % 60;
  if (hours > 0) parts.push(`${hours} h`);
  if (minutes > 0) parts.push(`${minutes} min`);
  if (secs > 0) parts.push(`${secs} s`);
  return parts.join(' ');
}

/** The units a form offers for a hold, largest first. */
export const HOLD_UNITS = [
  { label: 'days', seconds: 86_400 },
  { label: 'hours', seconds: 3600 },
  { label: 'minutes', seconds: 60 },
] as const;

/** A hold as a form shows it: the largest unit that divides it, e.g. 7200 → 2 hours. */
export function holdInUnits(seconds: number): { value: string; unitSeconds: number } {
  const unit = HOLD_UNITS.find((u) => seconds % u.seconds === 0) ?? { seconds: 1 };
  if (unit.seconds === 1) return { value: String(seconds / 60), unitSeconds: 60 };
  return { value: String(seconds / unit.seconds), unitSeconds: unit.seconds };
}
