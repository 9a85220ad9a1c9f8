/**
 * Rounds run one after another until stopped, each `intervalMs` after the last ends; after a
 * failure, twice as long each time, up to `retryMaxMs`. The chain watcher and the withdrawal
 * sender run on it. Its timer alone keeps no process alive.
 */
export interface RoundsOptions {
  readonly intervalMs: number;
  readonly retryMaxMs: number;
  /** One round; a throw counts as a failure. */
  round(): Promise<void>;
  /** A round failed; the next is in `delayMs`. Never throws out of the loop. */
  failed(error: unknown, delayMs: number): Promise<void> | void;
  /** A round succeeded after `failures` failed ones. */
  recovered?(failures: number): void;
}

export class Rounds {
  readonly #options: RoundsOptions;
  #timer: NodeJS.Timeout | undefined;
  #current: Promise<void> | null = null;
  #running = false;
  #failures = 0;

  constructor(options: RoundsOptions) {
    this.#options = options;
  }

  get running(): boolean {
    return this.#running;
  }

  /** Starts the rounds (the first at once); false when they already run. */
  start(): boolean {
    if (this.#running) return false;
    this.#running = true;
    this.#schedule(0);
    return true;
  }

  /** Stops the rounds and waits for one in progress. */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#current;
  }

  #schedule(delayMs: number): void {
    this.#timer = setTimeout(() => {
      this.#current = this.#tick().finally(() => {
        this.#current = null;
      });
    }, delayMs);
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    const { intervalMs, retryMaxMs } = this.#options;
    let delayMs = intervalMs;
    try {
      await this.#options.round();
      if (this.#failures > 0) this.#options.recovered?.(this.#failures);
      this.#failures = 0;
    } catch (error) {
      this.#failures += 1;
      delayMs = Math.min(
        intervalMs * 2 ** Math.min(this.#failures, 20),
        Math.max(retryMaxMs, intervalMs),
      );
      await Promise.resolve(this.#options.failed(error, delayMs)).catch(() => undefined);
    }
    if (this.#running) this.#schedule(delayMs);
  }
}
