import { afterEach, describe, expect, it } from 'vitest';
import { SandboxPool } from '../../src/verifier/sandbox-pool.js';
import type { SandboxLimits } from '../../src/verifier/verifier-types.js';

/**
 * Runs wait by game and the games take turns: a game flooding the sandbox with slow runs delays
 * its own, not another game's. One worker, so the order runs finish in is the order they ran.
 */

const LIMITS: SandboxLimits = {
  timeLimitMs: 2_000,
  memoryLimitBytes: 32 * 1024 * 1024,
  stackLimitBytes: 256 * 1024,
};
// A verifier that works for a while (a few milliseconds) and answers the score it was given.
const SLOW = `export function verify({ score }) {
  let x = 0;
  for (let i = 0; i < 300000; i++) x = (x + i) % 7;
  return score + x * 0;
}`;

describe('the sandbox pool, shared by games', () => {
  let pool: SandboxPool;
  afterEach(() => pool.close());

  const run = (share: string, score: number, finished: string[]) =>
    pool
      .run({ op: 'run', source: SLOW, input: JSON.stringify({ score }), limits: LIMITS }, share)
      .then((result) => {
        expect(result).toEqual({ kind: 'score', score });
        finished.push(`${share}${score}`);
      });

  it("runs a second game's score between the first game's, not after all of them", async () => {
    pool = new SandboxPool(1);
    const finished: string[] = [];
    // Six of game A's arrive first, then one of B's and one of C's, all before the worker is up.
    const runs = [1, 2, 3, 4, 5, 6].map((n) => run('A', n, finished));
    runs.push(run('B', 1, finished), run('C', 1, finished));
    await Promise.all(runs);
    // In arrival order, B and C would have waited for all six of A's.
    expect(finished).toEqual(['A1', 'B1', 'C1', 'A2', 'A3', 'A4', 'A5', 'A6']);
  });

  it("keeps each game's own runs in the order they came", async () => {
    pool = new SandboxPool(1);
    const finished: string[] = [];
    const runs = [1, 2, 3].flatMap((n) => [run('A', n, finished), run('B', n, finished)]);
    await Promise.all(runs);
    expect(finished).toEqual(['A1', 'B1', 'A2', 'B2', 'A3', 'B3']);
    // A game arriving while another's runs wait takes the next turn after the one running.
    const later: string[] = [];
    const first = [1, 2, 3].map((n) => run('A', n, later));
    await new Promise((resolve) => setTimeout(resolve, 5));
    first.push(run('B', 1, later));
    await Promise.all(first);
    expect(later.indexOf('B1')).toBeLessThanOrEqual(2);
    expect(later.filter((x) => x.startsWith('A'))).toEqual(['A1', 'A2', 'A3']);
  });

  it('answers every waiting run when it closes', async () => {
    pool = new SandboxPool(1);
    const results = [
      pool.run({ op: 'run', source: SLOW, input: '{"score":1}', limits: LIMITS }, 'A'),
      pool.run({ op: 'run', source: SLOW, input: '{"score":2}', limits: LIMITS }, 'B'),
    ];
    await pool.close();
    for (const result of await Promise.all(results)) {
      expect(result).toEqual({ kind: 'failed', reason: 'threw', detail: 'the sandbox closed' });
    }
  });
});
