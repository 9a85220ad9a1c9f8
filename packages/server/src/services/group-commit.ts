import { refusedByDatabase } from '../store/errors.js';

/**
 * Group commit: the jobs that arrive while a batch is committing are committed together in the
 * next one, each answered with its own outcome. It serves the play and the score path alike; what
 * a batch is (one statement, a read and a write) is the caller's `commit`.
 */

/** One job's outcome in a batch: its result, or the error that refused it alone. */
export type BatchOutcome<Result> =
  { readonly ok: true; readonly value: Result } | { readonly ok: false; readonly error: unknown };

export interface GroupCommitOptions<Job, Result> {
  /** Commits a batch, answering each job in order; throws when the batch fails as a whole. */
  commit(batch: readonly Job[]): Promise<readonly BatchOutcome<Result>[]>;
  /**
   * Commits one job of a batch that failed as a whole, so only the job that caused the error
   * sees it. A batch of one fails with its own error instead, and so does every job of a batch
   * the database refused for its own state (unreachable, out of resources, a statement cancelled
   * by a timeout): each alone would only wait to fail too, and add to the load that caused it.
   */
  commitAlone(job: Job): Promise<Result>;
  /**
   * Jobs with the same key never share a batch: a batch stops before a repeated key, so the
   * later job sees the earlier one's result (two scores of one play, two plays of one player).
   */
  key(job: Job): string;
  readonly maxBatch: number;
  /**
   * How many batches may commit at once (1 when absent). A batch in flight holds its keys: a job
   * whose key is in flight waits for that batch, so batches in flight never share a key.
   */
  readonly maxInFlight?: number;
  /** Told each batch's size as it starts (the metrics' batch-size histogram). */
  readonly onBatch?: (size: number) => void;
}

interface Waiting<Job, Result> {
  readonly job: Job;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

export class GroupCommit<Job, Result> {
  readonly #options: GroupCommitOptions<Job, Result>;
  readonly #maxInFlight: number;
  readonly #queue: Waiting<Job, Result>[] = [];
  /** The keys of the batches committing now. */
  readonly #keysInFlight = new Set<string>();
  #inFlight = 0;
  /** A batch is gathering: it starts once the requests already received have queued. */
  #gathering = false;

  constructor(options: GroupCommitOptions<Job, Result>) {
    this.#options = options;
    this.#maxInFlight = options.maxInFlight ?? 1;
  }

  /** Jobs waiting for a batch. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Batches committing now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Queues the job for the next batch; settles once that batch has committed (or failed). */
  submit(job: Job): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.#queue.push({ job, resolve, reject });
      this.#startBatch();
    });
  }

  #startBatch(): void {
    if (this.#gathering || this.#inFlight >= this.#maxInFlight || this.#queue.length === 0) return;
    this.#gathering = true;
    // Let the requests already received reach the queue first. On PGlite a batch runs without
    // yielding to I/O, so without this every batch would hold one job.
    setImmediate(() => {
      this.#gathering = false;
      const batch = this.#take();
      // Every waiting job's key is in flight: the batch that holds it starts the next one.
      if (batch.length === 0) return;
      this.#inFlight += 1;
      this.#options.onBatch?.(batch.length);
      const keys = batch.map((w) => this.#options.key(w.job));
      for (const key of keys) this.#keysInFlight.add(key);
      void this.#commit(batch).finally(() => {
        this.#inFlight -= 1;
        for (const key of keys) this.#keysInFlight.delete(key);
        this.#startBatch();
      });
      this.#startBatch();
    });
  }

  /**
   * Up to `maxBatch` jobs from the front of the queue, stopping before a key repeated or in
   * flight, so jobs of one key commit in the order they came.
   */
  #take(): Waiting<Job, Result>[] {
    const seen = new Set<string>();
    let n = 0;
    while (n < this.#queue.length && n < this.#options.maxBatch) {
      const key = this.#options.key((this.#queue[n] as Waiting<Job, Result>).job);
      if (seen.has(key) || this.#keysInFlight.has(key)) break;
      seen.add(key);
      n += 1;
    }
    return this.#queue.splice(0, n);
  }

  async #commit(batch: readonly Waiting<Job, Result>[]): Promise<void> {
    let outcomes: readonly BatchOutcome<Result>[];
    try {
      outcomes = await this.#options.commit(batch.map((w) => w.job));
    } catch (error) {
      if (batch.length === 1 || refusedByDatabase(error)) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      for (const waiting of batch) {
        try {
          waiting.resolve(await this.#options.commitAlone(waiting.job));
        } catch (alone) {
          waiting.reject(alone);
        }
      }
      return;
    }
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined) {
        waiting.reject(new TypeError('the batch gave this job no answer'));
      } else if (outcome.ok) {
        waiting.resolve(outcome.value);
      } else {
        waiting.reject(outcome.error);
      }
    });
  }
}
