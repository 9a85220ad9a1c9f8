// @ts-check
/* global performance */

/**
 * One round of the reaction game as a state machine, apart from the page so it can be tested
 * without one: idle → waiting (a random 1.5–4 s) → ready (green) → done, or foul when the player
 * presses while waiting.
 */

export const MIN_WAIT_MS = 1500;
export const MAX_WAIT_MS = 4000;

/** @typedef {'idle' | 'waiting' | 'ready' | 'done' | 'foul'} Phase */

/**
 * @typedef {object} RoundState
 * @property {Phase} phase
 * @property {string | null} playId the play this round belongs to (spec 4.10 rule 2)
 * @property {number | null} reactionMs whole milliseconds from green to the press, once done
 */

/**
 * @typedef {object} RoundOptions
 * @property {() => number} [random] a number in [0, 1), for the wait before green
 * @property {() => number} [now] a monotonic clock in milliseconds
 * @property {(state: RoundState) => void} [onChange] called after every change of phase
 */

/**
 * How long to wait before green for a random number in [0, 1): MIN_WAIT_MS to MAX_WAIT_MS.
 * @param {number} random
 */
export function waitMsFor(random) {
  return MIN_WAIT_MS + Math.floor(random * (MAX_WAIT_MS - MIN_WAIT_MS + 1));
}

export class ReactionRound {
  /** @type {RoundState} */
  #state = { phase: 'idle', playId: null, reactionMs: null };
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  #timer;
  #readyAt = 0;
  #random;
  #now;
  #onChange;

  /** @param {RoundOptions} [options] */
  constructor(options = {}) {
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? (() => performance.now());
    this.#onChange = options.onChange ?? (() => {});
  }

  /** @returns {RoundState} */
  get state() {
    return { ...this.#state };
  }

  /**
   * Starts waiting for green. Only with the playId the arcade approved: a game must not start
   * without one (spec 4.10 rule 2), so a missing one is a programming error.
   * @param {string} playId
   */
  start(playId) {
    if (typeof playId !== 'string' || playId === '') {
      throw new TypeError('a round starts only with the playId of an approved play');
    }
    if (this.#state.phase === 'waiting' || this.#state.phase === 'ready') {
      throw new Error(`a round is already running (${this.#state.phase})`);
    }
    this.#set({ phase: 'waiting', playId, reactionMs: null });
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#readyAt = this.#now();
      this.#set({ ...this.#state, phase: 'ready' });
    }, waitMsFor(this.#random()));
  }

  /**
   * The player clicked, tapped or pressed a key. Before green it is a foul; on green it ends the
   * round with the reaction time; at any other time it does nothing.
   * @returns {RoundState}
   */
  press() {
    if (this.#state.phase === 'waiting') {
      this.#clearTimer();
      this.#set({ ...this.#state, phase: 'foul' });
    } else if (this.#state.phase === 'ready') {
      const reactionMs = Math.round(this.#now() - this.#readyAt);
      this.#set({ ...this.#state, phase: 'done', reactionMs });
    }
    return this.state;
  }

  /** Back to idle, dropping any round in progress (its play is left unscored). */
  reset() {
    this.#clearTimer();
    this.#set({ phase: 'idle', playId: null, reactionMs: null });
  }

  #clearTimer() {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** @param {RoundState} state */
  #set(state) {
    this.#state = state;
    this.#onChange(this.state);
  }
}
