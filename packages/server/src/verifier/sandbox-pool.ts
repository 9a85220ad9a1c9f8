import { Worker } from 'node:worker_threads';
import type { SandboxLimits, SandboxResult } from './verifier-types.js';

/** What a worker is asked: load a module (`inspect`) or call its `verify` with `input` (`run`). */
export interface SandboxJob {
  readonly op: 'run' | 'inspect';
  readonly source: string;
  /** The argument of `verify`, as JSON text: parsed inside the guest. */
  readonly input: string;
  readonly limits: SandboxLimits;
}

/** What sandbox-worker.mjs answers: `ready` once its QuickJS module is loaded, then results. */
type SandboxReply =
  { readonly ready: true } | { readonly id: number; readonly result: SandboxResult };

/**
 * How long past its time limit a run may go unanswered before the watchdog ends the worker: the
 * interrupt handler stops a guest within milliseconds, so only a stuck thread (a wasm loop that
 * never reaches an interrupt check, a host bug) meets it.
 */
export const WATCHDOG_MARGIN_MS = 1000;

// Started from src/ both in the tests and in the built server (dist/verifier/ is as deep): a
// worker thread runs a file as Node finds it, so the worker is JavaScript (sandbox-worker.mjs).
const WORKER_FILE = new URL('../../src/verifier/sandbox-worker.mjs', import.meta.url);

// The worker's own JavaScript heap holds messages only (the guest lives in wasm memory, bounded
// by its limits): these stop a host bug from taking the process's memory with it.
const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

interface Waiting {
  readonly job: SandboxJob;
  readonly resolve: (result: SandboxResult) => void;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  running: (Waiting & { readonly id: number; readonly timer: NodeJS.Timeout }) | null;
}

/**
 * A few worker threads, each holding a QuickJS WebAssembly module, that run verifiers off the
 * event loop, one run per worker at a time. Runs wait by share (a game): the shares with runs
 * waiting take turns, each share's runs in arrival order, so a game whose scores come in floods,
 * or whose verifier takes its whole time limit, delays its own scores rather than every game's.
 * A worker that does not answer within the time limit and the margin is terminated and
 * replaced; so is one that crashes. Workers start on first use and do not keep the process alive.
 */
export class SandboxPool {
  readonly #size: number;
  readonly #slots: Slot[] = [];
  /** Each share's waiting runs, in arrival order. */
  readonly #waiting = new Map<string, Waiting[]>();
  /** The shares with runs waiting, in turn order: the next run is the first one's. */
  readonly #turns: string[] = [];
  #nextId = 1;
  #closed = false;

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`a sandbox pool needs 1+ workers`);
    this.#size = size;
  }

  /** Runs one job for `share` (a game's id); never rejects: every failure is a `failed` result. */
  run(job: SandboxJob, share: string): Promise<SandboxResult> {
    if (this.#closed) return Promise.resolve(stopped('the sandbox is closed'));
    return new Promise((resolve) => {
      this.#enqueue(share, { job, resolve });
      while (this.#slots.length < this.#size && this.#slots.every((slot) => slot.running)) {
        this.#start();
      }
      this.#dispatch();
    });
  }

  /** Ends every worker; runs still waiting are answered `failed`. */
  async close(): Promise<void> {
    this.#closed = true;
    for (let waiting = this.#next(); waiting !== undefined; waiting = this.#next()) {
      waiting.resolve(stopped('the sandbox closed'));
    }
    const slots = this.#slots.splice(0);
    for (const slot of slots) this.#finish(slot, stopped('the sandbox closed'));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #start(): void {
    const worker = new Worker(WORKER_FILE, { resourceLimits: WORKER_LIMITS });
    worker.unref();
    const slot: Slot = { worker, ready: false, running: null };
    this.#slots.push(slot);
    worker.on('message', (reply: SandboxReply) => {
      if ('ready' in reply) {
        slot.ready = true;
      } else if (slot.running?.id === reply.id) {
        this.#finish(slot, reply.result);
      }
      this.#dispatch();
    });
    const lost = (why: string) => this.#replace(slot, stopped(why));
    worker.on('error', (error) => lost(`the sandbox failed: ${error.message}`));
    worker.on('exit', () => lost('the sandbox stopped'));
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (!slot.ready || slot.running !== null) continue;
      const waiting = this.#next();
      if (waiting === undefined) return;
      const id = this.#nextId++;
      const timer = setTimeout(() => {
        const { timeLimitMs } = waiting.job.limits;
        this.#replace(slot, {
          kind: 'failed',
          reason: 'time_limit',
          detail: `the verifier ran out of time (${timeLimitMs} ms)`,
        });
      }, waiting.job.limits.timeLimitMs + WATCHDOG_MARGIN_MS);
      slot.running = { ...waiting, id, timer };
      slot.worker.postMessage({ id, ...waiting.job });
    }
  }

  #enqueue(share: string, waiting: Waiting): void {
    const runs = this.#waiting.get(share);
    if (runs !== undefined) {
      runs.push(waiting);
      return;
    }
    this.#waiting.set(share, [waiting]);
    this.#turns.push(share);
  }

  /** The next run to start: the first share's oldest, that share then going last. */
  #next(): Waiting | undefined {
    const share = this.#turns.shift();
    if (share === undefined) return undefined;
    const runs = this.#waiting.get(share) as Waiting[];
    const waiting = runs.shift();
    if (runs.length > 0) this.#turns.push(share);
    else this.#waiting.delete(share);
    return waiting;
  }

  /** Answers the slot's run, if any, and marks it idle. */
  #finish(slot: Slot, result: SandboxResult): void {
    const running = slot.running;
    if (running === null) return;
    clearTimeout(running.timer);
    slot.running = null;
    running.resolve(result);
  }

  /** Answers the slot's run with `result`, ends its worker and starts another if work waits. */
  #replace(slot: Slot, result: SandboxResult): void {
    this.#finish(slot, result);
    const index = this.#slots.indexOf(slot);
    if (index === -1) return; // Already replaced (a terminate fires `exit` too).
    this.#slots.splice(index, 1);
    void slot.worker.terminate();
    if (!this.#closed && this.#turns.length > 0) this.#start();
    this.#dispatch();
  }
}

function stopped(detail: string): SandboxResult {
  return { kind: 'failed', reason: 'threw', detail };
}
