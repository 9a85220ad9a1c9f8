import { compareRanked, type RankedEntry } from './best.js';

/**
 * A whole board's bests in rank order, in memory: the rank of a key, the top entries and each
 * player's best, as the database's count tree and indexes give them. Changing a best costs a
 * binary search and a move of the entries below it, so it suits boards of thousands of players,
 * not millions.
 */
export class RankedBoard<T extends RankedEntry> {
  /** Best first (`compareRanked`). */
  readonly #entries: T[];
  readonly #byPlayer = new Map<string, T>();

  /** `bests`: one per player, in any order. */
  constructor(bests: Iterable<T>) {
    this.#entries = [...bests].sort(compareRanked);
    for (const e of this.#entries) {
      if (this.#byPlayer.has(e.playerId)) {
        throw new TypeError(`player ${e.playerId} has two bests on one board`);
      }
      this.#byPlayer.set(e.playerId, e);
    }
  }

  get size(): number {
    return this.#entries.length;
  }

  best(playerId: string): T | null {
    return this.#byPlayer.get(playerId) ?? null;
  }

  /** How many players' bests have a key at or above `key`. */
  atOrAbove(key: bigint): number {
    // Keys descend along the entries: the first one below `key` is their count.
    let lo = 0;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#entries[mid] as T).rankKey >= key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first `n` entries, best first. */
  top(n: number): T[] {
    return this.#entries.slice(0, n);
  }

  /** Makes `entry` its player's best, replacing the one they had. */
  place(entry: T): void {
    const previous = this.#byPlayer.get(entry.playerId);
    if (previous !== undefined) this.#entries.splice(this.#indexOf(previous), 1);
    this.#entries.splice(this.#insertionPoint(entry), 0, entry);
    this.#byPlayer.set(entry.playerId, entry);
  }

  #insertionPoint(entry: RankedEntry): number {
    let lo = 0;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareRanked(this.#entries[mid] as T, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #indexOf(entry: T): number {
    const i = this.#insertionPoint(entry);
    if (this.#entries[i] !== entry) throw new TypeError(`best of ${entry.playerId} is misplaced`);
    return i;
  }
}
