/**
 * Holds a pipelined connection's statements behind the first use of a named statement on it.
 * node-postgres sends a name's Parse with its first use only: the statements pipelined behind it
 * name the statement without making it. When that Parse fails (a lock_timeout while it waits for
 * its table's lock, a statement_timeout, a cancel), every statement already sent behind it fails
 * too, with "prepared statement … does not exist". So until a name's first use has succeeded on
 * the connection, what is given after it waits for its answer, then goes out in the order given.
 * That is a few statements per connection; every later use is pipelined as before.
 */
export class FirstUseGate {
  /** Names whose statement has run here: made on the server, not parsed again. */
  readonly #made = new Set<string>();
  /** Statements given while a first use was in flight, in the order given. */
  readonly #waiting: (() => void)[] = [];
  #firstUseInFlight = false;

  /** Sends `statement` (which must send synchronously when called) now, or after the first use ahead. */
  send<T>(name: string | undefined, statement: () => Promise<T>): Promise<T> {
    if (!this.#firstUseInFlight && this.#waiting.length === 0) return this.#start(name, statement);
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push(() => void this.#start(name, statement).then(resolve, reject));
    });
  }

  #start<T>(name: string | undefined, statement: () => Promise<T>): Promise<T> {
    const sent = statement();
    if (name !== undefined && !this.#made.has(name)) {
      this.#firstUseInFlight = true;
      void sent
        .then(
          () => this.#made.add(name),
          () => undefined,
        )
        .then(() => {
          this.#firstUseInFlight = false;
          while (!this.#firstUseInFlight && this.#waiting.length > 0) this.#waiting.shift()?.();
        });
    }
    return sent;
  }
}
