// One sandbox worker thread: it holds a QuickJS WebAssembly module and runs one verifier at a
// time, each in a fresh QuickJS runtime and context, so nothing a verifier does (globals,
// prototypes, module state) outlives its run. Plain JavaScript, not TypeScript: a worker thread
// starts from a file Node runs as it is, from src/ in the tests and in the published package
// alike (as the migrations' SQL is read from src/). sandbox-pool.ts is its only user; the
// messages it takes and answers are typed there (SandboxJob, SandboxReply).
//
// Nothing of the host reaches the guest: the input enters as JSON text parsed inside the guest,
// the only value read back is a number, and no host function is ever handed to the guest.
import { parentPort } from 'node:worker_threads';
import {
  newQuickJSWASMModuleFromVariant,
  shouldInterruptAfterDeadline,
} from 'quickjs-emscripten-core';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';

const quickjs = await newQuickJSWASMModuleFromVariant(releaseSync);

// A console that swallows everything: a verifier may log while it is developed, and it must not
// fail for it nor reach the host's console.
const PRELUDE = `globalThis.console = Object.freeze({
  log() {}, info() {}, warn() {}, error() {}, debug() {}, trace() {},
});`;
const DETAIL_MAX = 300;

/** @param {string} text */
const clip = (text) => (text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX)}…` : text);

/**
 * The name, message and place of a guest exception, read as strings only (never `dump`: a guest
 * object's toJSON or getters would run with no one to stop them after the run).
 */
function describeError(context, handle) {
  const type = context.typeof(handle);
  if (type === 'string') return { name: 'Error', message: context.getString(handle), where: '' };
  if (type !== 'object' || context.sameValue(handle, context.null)) {
    return { name: 'Error', message: `a thrown ${type}`, where: '' };
  }
  const text = (key) => {
    try {
      const value = context.getProp(handle, key);
      const result = context.typeof(value) === 'string' ? context.getString(value) : '';
      value.dispose();
      return result;
    } catch {
      return ''; // A getter that throws or runs past the deadline: nothing to tell.
    }
  };
  const stack = text('stack');
  const where = /verifier\.js:(\d+):(\d+)/.exec(stack);
  return {
    name: text('name') || 'Error',
    message: text('message'),
    where: where === null ? '' : ` (line ${where[1]}, column ${where[2]})`,
  };
}

/** A guest exception as a sandbox result: which limit it hit, or what it threw. */
function failure(context, handle, limits, stage) {
  const { name, message, where } = describeError(context, handle);
  if (name === 'InternalError' && message === 'interrupted') {
    return {
      kind: 'failed',
      reason: 'time_limit',
      detail: `the verifier ran out of time (${limits.timeLimitMs} ms)`,
    };
  }
  if (message === 'out of memory' || message === 'string too long') {
    return {
      kind: 'failed',
      reason: 'memory_limit',
      detail: `the verifier ran out of memory (${limits.memoryLimitBytes / 1024 / 1024} MB)`,
    };
  }
  if (message === 'stack overflow') {
    return {
      kind: 'failed',
      reason: 'threw',
      detail: `the verifier overflowed its stack (${limits.stackLimitBytes / 1024} KiB): unbounded recursion?`,
    };
  }
  const reason = stage === 'load' ? 'invalid' : 'threw';
  const what = stage === 'load' ? 'the module does not load' : 'verify threw';
  return { kind: 'failed', reason, detail: clip(`${what}: ${name}: ${message}${where}`) };
}

/** What verify returned, when it is not a finite number. */
function notAScore(context, value, owned) {
  const type = context.typeof(value);
  if (type === 'number') {
    const number = context.getNumber(value);
    return Number.isFinite(number) ? null : `verify returned ${number}, not a finite number`;
  }
  let promise = false;
  if (type === 'object') {
    const state = context.getPromiseState(value);
    owned.push(state.type === 'pending' ? null : (state.error ?? state.value));
    promise = state.notAPromise !== true;
  }
  return promise
    ? 'verify returned a Promise: it must return a number synchronously'
    : `verify returned ${type === 'object' ? 'an object' : `a ${type}`}, not a number`;
}

/**
 * Loads the module and finds `verify`: `{ verify }`, or `{ failed }`. Every handle it makes goes
 * into `owned`, which the run disposes before its runtime.
 */
function loadVerify(context, source, limits, owned) {
  const loaded = context.evalCode(source, 'verifier.js', { type: 'module', strict: true });
  owned.push(loaded.error ?? loaded.value);
  if (loaded.error) return { failed: failure(context, loaded.error, limits, 'load') };
  const state = context.getPromiseState(loaded.value);
  if (state.type === 'pending') {
    const detail = 'the module must not await at its top level';
    return { failed: { kind: 'failed', reason: 'invalid', detail } };
  }
  owned.push(state.error ?? state.value);
  if (state.type === 'rejected') return { failed: failure(context, state.error, limits, 'load') };
  const verify = context.getProp(state.value, 'verify');
  owned.push(verify);
  if (context.typeof(verify) !== 'function') {
    const detail = 'the module exports no function `verify`';
    return { failed: { kind: 'failed', reason: 'invalid', detail } };
  }
  return { verify };
}

/** One run in a fresh runtime: `inspect` loads the module only, `run` calls verify(input). */
function runOnce({ op, source, input, limits }) {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryLimitBytes);
  runtime.setMaxStackSize(limits.stackLimitBytes);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeLimitMs));
  const context = runtime.newContext();
  const owned = [];
  try {
    owned.push(context.unwrapResult(context.evalCode(PRELUDE, 'prelude.js', { type: 'global' })));
    // The input is parsed inside the guest before the module runs, so the module's own code
    // cannot have replaced JSON.parse yet.
    const parsed = context.evalCode(`JSON.parse(${JSON.stringify(input)})`, 'input.js', {
      type: 'global',
    });
    const argument = context.unwrapResult(parsed);
    owned.push(argument);
    const loaded = loadVerify(context, source, limits, owned);
    if (loaded.failed) return loaded.failed;
    if (op === 'inspect') return { kind: 'valid' };
    const called = context.callFunction(loaded.verify, context.undefined, argument);
    owned.push(called.error ?? called.value);
    if (called.error) return failure(context, called.error, limits, 'run');
    const wrong = notAScore(context, called.value, owned);
    if (wrong !== null) return { kind: 'failed', reason: 'threw', detail: wrong };
    return { kind: 'score', score: context.getNumber(called.value) };
  } finally {
    // Every handle first: QuickJS frees a runtime only once no value of it is held.
    for (const handle of owned.reverse()) if (handle?.alive) handle.dispose();
    context.dispose();
    runtime.dispose();
  }
}

parentPort.on('message', (job) => {
  try {
    parentPort.postMessage({ id: job.id, result: runOnce(job) });
  } catch (error) {
    // The host itself failed (a wasm trap, the thread's own stack): this QuickJS module may be
    // left inconsistent, so answer and end the thread; the pool starts a fresh one.
    const detail = clip(`the sandbox failed: ${error instanceof Error ? error.message : error}`);
    parentPort.postMessage({ id: job.id, result: { kind: 'failed', reason: 'threw', detail } });
    process.exit(1);
  }
});
// V8 compiles QuickJS's WebAssembly lazily: the first runs are ten times slower than the rest.
// A warm-up run before taking work keeps a score from paying that against its time limit.
const WARM_UP = `export function verify({ replay }) {
  const moves = JSON.parse(replay);
  const cells = new Int32Array(16);
  let score = 0;
  for (let i = 0; i < 2000; i++) score += (cells[i % 16] += moves[i % moves.length]);
  return [score].map((n) => n % 7).filter(Boolean).length;
}`;
for (let round = 0; round < 3; round++) {
  runOnce({
    op: 'run',
    source: WARM_UP,
    input: JSON.stringify({ replay: '[1,2,3]' }),
    limits: {
      timeLimitMs: 10_000,
      memoryLimitBytes: 32 * 1024 * 1024,
      stackLimitBytes: 256 * 1024,
    },
  });
}
parentPort.postMessage({ ready: true });
