import { useEffect, useRef, useState } from 'react';

/**
 * A live countdown to a round's start or end: "Ends in 2d 04:13:09". Only this component
 * re-renders each second (its own timer, on the second's edge), never the page around it.
 * Nothing moves: the digits change in place (tabular figures, so the width holds). The exact
 * date is in the `<time>`'s `dateTime` and `title`, and screen readers get the time left in
 * words to the minute rather than a digit changing every second.
 */
export function Countdown({
  to,
  label,
  onElapsed,
  className,
}: {
  /** RFC 3339 time counted down to. */
  to: string;
  /** What the time is until, as the reader sees it: "Ends in", "Starts in". */
  label: string;
  /** Called once when the time is reached (a page reads the round again). */
  onElapsed?: () => void;
  className?: string;
}) {
  const target = Date.parse(to);
  const now = useSecondClock(target);
  const left = Math.max(0, target - now);
  const elapsed = useRef(false);
  const latest = useRef(onElapsed);
  latest.current = onElapsed;
  useEffect(() => {
    elapsed.current = false;
  }, [target]);
  useEffect(() => {
    if (left === 0 && !elapsed.current) {
      elapsed.current = true;
      latest.current?.();
    }
  }, [left]);
  const exact = exactDate(to);
  return (
    <span className={`countdown${className ? ` ${className}` : ''}`}>
      <span className="countdown-label">{label} </span>
      <time dateTime={to} title={exact}>
        <span aria-hidden="true">{clockText(left)}</span>
        <span className="visually-hidden">
          {wordsText(left)} ({exact})
        </span>
      </time>
    </span>
  );
}

/** The current time, read again at each second's edge until `until` has passed. */
function useSecondClock(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      if (current < until) timer = setTimeout(tick, 1000 - (current % 1000) + 5);
    };
    tick();
    return () => clearTimeout(timer);
  }, [until]);
  return now;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "2d 04:13:09", "04:13:09", "13:09". */
export function clockText(ms: number): string {
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  const seconds = Math.floor((ms % MINUTE) / SECOND);
  const two = (n: number) => String(n).padStart(2, '0');
  const clock =
    days > 0 || hours > 0
      ? `${two(hours)}:${two(minutes)}:${two(seconds)}`
      : `${two(minutes)}:${two(seconds)}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}

/** "2 days 4 hours 13 minutes", to the minute (less than a minute says so). */
function wordsText(ms: number): string {
  if (ms < MINUTE) return ms === 0 ? 'now' : 'less than a minute';
  const parts: string[] = [];
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  const say = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (days > 0) parts.push(say(days, 'day'));
  if (hours > 0) parts.push(say(hours, 'hour'));
  if (minutes > 0 && days === 0) parts.push(say(minutes, 'minute'));
  return parts.join(' ');
}

/** The exact date in the reader's locale, with its zone: "Tue, 1 Dec 2026, 00:00 UTC". */
export function exactDate(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}
