import { afterAll, describe, expect, it } from 'vitest';
import {
  createReplayVerifier,
  type VerifierSandbox,
  type VerifierSources,
} from '../../src/verifier/index.js';

// The real sandbox (QuickJS in worker threads) against verifiers that attack it. The uploaded
// modules come from a map here; the store's side of the port is covered with the upload routes.

const SEED = 'ab'.repeat(32);
const LIMITS = { timeLimitMs: 250, memoryLimitMb: 32, workers: 1, replayMaxBytes: 65_536 };

function sourcesOf(modules: Map<string, string>): VerifierSources {
  return {
    currentVersion: async (gameId) => (modules.has(gameId) ? 1 : null),
    source: async (gameId) => modules.get(gameId) ?? null,
  };
}

const modules = new Map<string, string>();
const sandbox: VerifierSandbox = createReplayVerifier({
  sources: sourcesOf(modules),
  settings: LIMITS,
});
afterAll(() => sandbox.close());

const call = (replay = '[]', score = 3) => ({ seed: SEED, replay, score, leaderboardId: 'board' });

// Sums the replay's moves; the seed's first byte is a bonus: the shape of a real verifier.
const SUMMING = `
export function verify({ seed, replay, score }) {
  const moves = JSON.parse(replay);
  return moves.reduce((sum, move) => sum + move, 0) + parseInt(seed.slice(0, 2), 16);
}`;

describe('the verifier sandbox', () => {
  it('accepts a replay that earns its score and refuses one that does not, saying what it earns', async () => {
    modules.set('game-1', SUMMING);
    const ok = await sandbox.verify({ gameId: 'game-1', ...call('[1,2,3]', 6 + 0xab) });
    expect(ok).toEqual({ ok: true, computed: 177 });
    const forged = await sandbox.verify({ gameId: 'game-1', ...call('[1,2,3]', 4200) });
    expect(forged).toEqual({
      ok: false,
      reason: 'mismatch',
      detail: 'the replay earns 177, not 4200',
      computed: 177,
    });
  });

  it('answers no_verifier for a game without one', async () => {
    const outcome = await sandbox.verify({ gameId: 'no-such-game', ...call() });
    expect(outcome).toEqual({
      ok: false,
      reason: 'no_verifier',
      detail: 'the game has no replay verifier',
    });
  });

  it('stops an endless loop at its time limit while the event loop keeps answering', async () => {
    const started = performance.now();
    let ticks = 0;
    let worstGapMs = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      worstGapMs = Math.max(worstGapMs, now - last);
      last = now;
      ticks += 1;
    }, 10);
    const outcome = await sandbox.check('export function verify() { while (true) {} }', call());
    clearInterval(ticker);
    const tookMs = performance.now() - started;
    expect(outcome).toEqual({
      ok: false,
      reason: 'time_limit',
      detail: 'the verifier ran out of time (250 ms)',
    });
    expect(tookMs).toBeGreaterThanOrEqual(240);
    expect(tookMs).toBeLessThan(250 + 1000); // The limit plus the watchdog's margin.
    // The loop ran in a worker: this thread's 10 ms timer kept firing meanwhile.
    expect(ticks).toBeGreaterThan(5);
    console.info(
      `endless loop: refused after ${tookMs.toFixed(0)} ms; worst timer gap ${worstGapMs.toFixed(0)} ms`,
    );
  });

  it('stops an endless loop at the top level of the module too', async () => {
    const outcome = await sandbox.check(
      'for (;;) {}\nexport function verify() { return 1 }',
      call(),
    );
    expect(outcome).toMatchObject({ ok: false, reason: 'time_limit' });
  });

  it('stops memory bombs at the memory limit', async () => {
    const buffers = `export function verify() {
      const hoard = [];
      for (let size = 1 << 20; ; size *= 2) hoard.push(new ArrayBuffer(size));
    }`;
    const strings = `export function verify() {
      let text = 'x';
      const kept = [];
      for (;;) { text = text + text; kept.push(text); }
    }`;
    // Each bomb outgrows the limit within a few allocations. One growing by many small pieces
    // spends its time in QuickJS's garbage collector instead: the time limit (or the watchdog,
    // below) stops it first.
    for (const source of [buffers, strings]) {
      const started = performance.now();
      const outcome = await sandbox.check(source, call());
      console.info(`memory bomb: refused after ${(performance.now() - started).toFixed(0)} ms`);
      expect(outcome).toEqual({
        ok: false,
        reason: 'memory_limit',
        detail: 'the verifier ran out of memory (32 MB)',
      });
    }
  });

  it('ends a worker the interrupt handler cannot stop, by its watchdog, and goes on', async () => {
    // Filling huge arrays near the memory limit keeps QuickJS in native code (allocation and
    // garbage collection) where no interrupt is checked: only the host's watchdog stops it.
    const thrashing = `export function verify() {
      const hoard = [];
      for (;;) hoard.push(new Array(100000).fill(hoard.length));
    }`;
    const started = performance.now();
    const outcome = await sandbox.check(thrashing, call());
    const tookMs = performance.now() - started;
    expect(outcome).toEqual({
      ok: false,
      reason: 'time_limit',
      detail: 'the verifier ran out of time (250 ms)',
    });
    expect(tookMs).toBeLessThan(250 + 1000 + 500); // The limit, the margin, a busy machine.
    expect(await sandbox.check(SUMMING, call('[1]', 1 + 0xab))).toEqual({
      ok: true,
      computed: 172,
    });
  });

  it('stops unbounded recursion with a clear refusal, and the next run works', async () => {
    const outcome = await sandbox.check(
      'export function verify() { const deeper = (n) => deeper(n + 1) + 1; return deeper(0) }',
      call(),
    );
    expect(outcome).toEqual({
      ok: false,
      reason: 'threw',
      detail: 'the verifier overflowed its stack (256 KiB): unbounded recursion?',
    });
    expect(await sandbox.check(SUMMING, call('[3]', 3 + 0xab))).toEqual({
      ok: true,
      computed: 174,
    });
  });

  it('gives the guest nothing of the host: no require, process, fetch, file system nor timers', async () => {
    const probe = `export function verify() {
      const seen = [typeof require, typeof process, typeof fetch, typeof XMLHttpRequest,
        typeof setTimeout, typeof Buffer, typeof WebAssembly, typeof std, typeof os,
        typeof globalThis.global, typeof module, typeof exports];
      if (seen.some((type) => type !== 'undefined')) throw new Error(seen.join());
      console.log('logs go nowhere');
      return 1;
    }`;
    expect(await sandbox.check(probe, call('[]', 1))).toEqual({ ok: true, computed: 1 });

    const staticImport = await sandbox.inspect(
      'import { readFileSync } from "fs";\nexport function verify() { return 1 }',
    );
    expect(staticImport).toEqual({
      ok: false,
      detail: "the module does not load: ReferenceError: could not load module 'fs'",
    });
    const dynamicImport = await sandbox.check(
      'export function verify() { return import("fs") }',
      call(),
    );
    expect(dynamicImport).toEqual({
      ok: false,
      reason: 'threw',
      detail: 'verify returned a Promise: it must return a number synchronously',
    });
    const escape = await sandbox.check(
      `export function verify() {
        return this.constructor.constructor('return process')().pid;
      }`,
      call(),
    );
    expect(escape).toMatchObject({ ok: false, reason: 'threw' });
  });

  it('keeps prototype pollution inside one run: the host and the next run see nothing', async () => {
    const polluter = `export function verify() {
      Object.prototype.polluted = 1;
      Array.prototype.push = () => 42;
      globalThis.leftOver = 'x';
      return 1;
    }`;
    expect(await sandbox.check(polluter, call('[]', 1))).toEqual({ ok: true, computed: 1 });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect([].push.toString()).toContain('[native code]');
    const witness = `export function verify() {
      const list = [];
      list.push(1);
      if (({}).polluted !== undefined || typeof leftOver !== 'undefined' || list.length !== 1) {
        throw new Error('polluted');
      }
      return 2;
    }`;
    expect(await sandbox.check(witness, call('[]', 2))).toEqual({ ok: true, computed: 2 });
  });

  it('refuses a result that is not a finite number', async () => {
    const cases: [string, string][] = [
      ['"4200"', 'verify returned a string, not a number'],
      ['({ score: 3 })', 'verify returned an object, not a number'],
      ['NaN', 'verify returned NaN, not a finite number'],
      ['Infinity', 'verify returned Infinity, not a finite number'],
      ['undefined', 'verify returned a undefined, not a number'],
    ];
    for (const [value, detail] of cases) {
      const outcome = await sandbox.check(`export function verify() { return ${value} }`, call());
      expect(outcome).toEqual({ ok: false, reason: 'threw', detail });
    }
  });

  it('says what a throwing verifier threw, with its line', async () => {
    const outcome = await sandbox.check(
      'export function verify({ replay }) {\n  throw new Error(`bad move in ${replay}`);\n}',
      call('[9]'),
    );
    expect(outcome).toEqual({
      ok: false,
      reason: 'threw',
      detail: expect.stringMatching(
        /^verify threw: Error: bad move in \[9\] \(line 2, column \d+\)$/,
      ),
    });
  });

  it('refuses a replay over the size limit before running anything', async () => {
    const outcome = await sandbox.check(SUMMING, call('x'.repeat(65_537)));
    expect(outcome).toEqual({
      ok: false,
      reason: 'threw',
      detail: 'the replay is 65537 bytes, over the limit of 65536',
    });
  });

  it('inspects an upload: a syntax error with its line, a missing verify export', async () => {
    expect(await sandbox.inspect(SUMMING)).toEqual({ ok: true });
    expect(await sandbox.inspect('export function verify() {\n  return (;\n}')).toEqual({
      ok: false,
      detail: expect.stringMatching(
        /^the module does not load: SyntaxError: .+ \(line 2, column \d+\)$/,
      ),
    });
    expect(await sandbox.inspect('export const verify = 3;')).toEqual({
      ok: false,
      detail: 'the module exports no function `verify`',
    });
    expect(await sandbox.inspect('export default function verify() { return 1 }')).toEqual({
      ok: false,
      detail: 'the module exports no function `verify`',
    });
  });

  it('answers each of many concurrent runs on two workers with its own outcome', async () => {
    const pair = createReplayVerifier({
      sources: sourcesOf(modules),
      settings: { ...LIMITS, workers: 2 },
    });
    try {
      const runs = Array.from({ length: 24 }, (_, i) => {
        const replay = JSON.stringify([i, i]);
        // Every third claims one too many: refused with what the replay earns.
        const claimed = 2 * i + 0xab + (i % 3 === 0 ? 1 : 0);
        return pair.check(SUMMING, call(replay, claimed)).then((outcome) => ({ i, outcome }));
      });
      for (const { i, outcome } of await Promise.all(runs)) {
        const earned = 2 * i + 0xab;
        expect(outcome).toEqual(
          i % 3 === 0
            ? {
                ok: false,
                reason: 'mismatch',
                detail: `the replay earns ${earned}, not ${earned + 1}`,
                computed: earned,
              }
            : { ok: true, computed: earned },
        );
      }
    } finally {
      await pair.close();
    }
  });
});
