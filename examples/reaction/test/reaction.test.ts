import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_WAIT_MS,
  MIN_WAIT_MS,
  ReactionRound,
  waitMsFor,
  type RoundState,
} from '../web/reaction.js';

describe('the reaction round', () => {
  let clock: number;
  let changes: RoundState[];
  const round = (random = 0) =>
    new ReactionRound({ random: () => random, now: () => clock, onChange: (s) => changes.push(s) });

  beforeEach(() => {
    vi.useFakeTimers();
    clock = 1000;
    changes = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    [0, MIN_WAIT_MS],
    [0.5, 2750],
    [0.9999999, MAX_WAIT_MS],
  ])('waits %s → %i ms before green', (random, ms) => {
    expect(waitMsFor(random)).toBe(ms);
  });

  it('starts idle, waits, turns ready after the wait, and scores the reaction time', () => {
    const r = round(0.5);
    expect(r.state).toEqual({ phase: 'idle', playId: null, reactionMs: null });
    r.start('play-1');
    expect(r.state.phase).toBe('waiting');
    vi.advanceTimersByTime(2749);
    expect(r.state.phase).toBe('waiting');
    vi.advanceTimersByTime(1);
    expect(r.state.phase).toBe('ready');
    clock += 243.4;
    expect(r.press()).toEqual({ phase: 'done', playId: 'play-1', reactionMs: 243 });
    expect(changes.map((s) => s.phase)).toEqual(['waiting', 'ready', 'done']);
  });

  it('calls a press before green a foul, and never turns green afterwards', () => {
    const r = round(0);
    r.start('play-2');
    vi.advanceTimersByTime(MIN_WAIT_MS - 1);
    expect(r.press()).toEqual({ phase: 'foul', playId: 'play-2', reactionMs: null });
    vi.advanceTimersByTime(MAX_WAIT_MS);
    expect(r.state.phase).toBe('foul');
    expect(changes.map((s) => s.phase)).toEqual(['waiting', 'foul']);
  });

  it('ignores presses when no round is running, and extra presses once done', () => {
    const r = round(0);
    expect(r.press().phase).toBe('idle');
    r.start('play-3');
    vi.advanceTimersByTime(MIN_WAIT_MS);
    clock += 300;
    r.press();
    clock += 500;
    expect(r.press()).toEqual({ phase: 'done', playId: 'play-3', reactionMs: 300 });
    expect(changes).toHaveLength(3);
  });

  it.each([undefined, '', 42])('refuses to start without a playId (%s): spec 4.10 rule 2', (id) => {
    const r = round();
    expect(() => r.start(id as string)).toThrow(
      new TypeError('a round starts only with the playId of an approved play'),
    );
    expect(r.state.phase).toBe('idle');
  });

  it('refuses a second start while a round runs, and starts again after it ends', () => {
    const r = round(0);
    r.start('play-4');
    expect(() => r.start('play-5')).toThrow('a round is already running (waiting)');
    r.press();
    r.start('play-5');
    expect(r.state).toEqual({ phase: 'waiting', playId: 'play-5', reactionMs: null });
  });

  it('reset drops the running round and its timer', () => {
    const r = round(0);
    r.start('play-6');
    r.reset();
    vi.advanceTimersByTime(MAX_WAIT_MS);
    expect(r.state).toEqual({ phase: 'idle', playId: null, reactionMs: null });
  });
});
