/** A scrape every few seconds reads the ledger at most this often. */
export const SLOW_SOURCE_TTL_MS = 5_000;

/**
 * A value read at most once every `SLOW_SOURCE_TTL_MS`; concurrent scrapes share one read. A
 * failed read leaves the gauge out of that scrape (Prometheus shows a gap) rather than fail it.
 */
export class CachedSource<T> {
  readonly #read: () => Promise<T>;
  #value: T | null = null;
  #readAt = 0;
  #reading: Promise<T | null> | null = null;

  constructor(read: () => Promise<T>) {
    this.#read = read;
  }

  get(): Promise<T | null> {
    if (this.#value !== null && Date.now() - this.#readAt < SLOW_SOURCE_TTL_MS) {
      return Promise.resolve(this.#value);
    }
    this.#reading ??= this.#read().then(
      (value) => {
        this.#value = value;
        this.#readAt = Date.now();
        this.#reading = null;
        return value;
      },
      () => {
        this.#reading = null;
        return null;
      },
    );
    return this.#reading;
  }
}
