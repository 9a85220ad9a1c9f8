import { describe, expect, it } from 'vitest';
import { compareRanked, RankedBoard, type RankedEntry } from '../../src/index.js';

/** Park–Miller, so a failing sequence can be replayed. */
function generator(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 48_271) % 2_147_483_647;
    return state % n;
  };
}

const entry = (player: number, key: number, at: number): RankedEntry => ({
  playerId: `p${String(player).padStart(3, '0')}`,
  score: key,
  rankKey: BigInt(key),
  achievedAt: new Date(at),
});

describe('a board ranked in memory', () => {
  it('answers ranks, tops and bests as a full sort and count would, through many changes', () => {
    const rand = generator(7);
    const naive = new Map<string, RankedEntry>();
    for (let p = 0; p < 50; p++) naive.set(entry(p, 0, 0).playerId, entry(p, rand(40), rand(5)));
    const board = new RankedBoard(naive.values());

    for (let step = 0; step < 2000; step++) {
      const e = entry(rand(80), rand(40), 1000 + step);
      naive.set(e.playerId, e);
      board.place(e);
      const sorted = [...naive.values()].sort(compareRanked);
      const key = BigInt(rand(42));
      expect(board.atOrAbove(key)).toBe(sorted.filter((x) => x.rankKey >= key).length);
      expect(board.top(4)).toEqual(sorted.slice(0, 4));
      expect(board.best(e.playerId)).toBe(e);
      expect(board.size).toBe(naive.size);
    }
    expect(board.top(naive.size)).toEqual([...naive.values()].sort(compareRanked));
    expect(board.best('nobody')).toBeNull();
  });

  it('keeps ties in the order of who got there first', () => {
    const board = new RankedBoard([entry(1, 10, 5), entry(2, 10, 3), entry(3, 12, 9)]);
    expect(board.top(3).map((e) => e.playerId)).toEqual(['p003', 'p002', 'p001']);
    expect(board.atOrAbove(10n)).toBe(3);
    expect(board.atOrAbove(11n)).toBe(1);
    expect(board.atOrAbove(13n)).toBe(0);
  });

  it('refuses two bests of one player', () => {
    expect(() => new RankedBoard([entry(1, 10, 5), entry(1, 11, 6)])).toThrow(
      'player p001 has two bests on one board',
    );
  });
});
