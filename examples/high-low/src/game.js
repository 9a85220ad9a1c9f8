// @ts-check
import { randomInt } from 'node:crypto';

/**
 * Higher or lower, decided on the server: a shuffled 52-card deck, the player calls whether the
 * next card is higher or lower than the one showing, and the score is the streak of right calls.
 * A wrong call ends the game; a card of the same rank is a push (no point, the game goes on);
 * the game also ends, with the full streak, when the deck runs out.
 */

export const SUITS = /** @type {const} */ (['♠', '♥', '♦', '♣']);
/** Ranks 2 to 14; the ace is high. */
export const RANKS = /** @type {const} */ ([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);

/** @typedef {{ rank: number, suit: string }} Card */
/** @typedef {'higher' | 'lower'} Guess */
/** @typedef {'right' | 'wrong' | 'push'} Outcome */

/** @param {Card} card */
export function cardName(card) {
  const names = /** @type {Record<number, string>} */ ({ 11: 'J', 12: 'Q', 13: 'K', 14: 'A' });
  return `${names[card.rank] ?? String(card.rank)}${card.suit}`;
}

/** The 52 cards in order. */
export function orderedDeck() {
  /** @type {Card[]} */
  const deck = [];
  for (const suit of SUITS) for (const rank of RANKS) deck.push({ rank, suit });
  return deck;
}

/**
 * A Fisher–Yates shuffle. `randomBelow(n)` returns an integer in [0, n); the default is
 * `crypto.randomInt`, so the next card cannot be predicted from earlier ones.
 * @param {readonly Card[]} cards
 * @param {(n: number) => number} [randomBelow]
 */
export function shuffle(cards, randomBelow = (n) => randomInt(n)) {
  const deck = [...cards];
  for (let i = deck.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    const a = /** @type {Card} */ (deck[i]);
    deck[i] = /** @type {Card} */ (deck[j]);
    deck[j] = a;
  }
  return deck;
}

/**
 * @typedef {object} GuessResult
 * @property {Card} card the card turned over
 * @property {Outcome} outcome
 * @property {number} streak right calls so far: the score
 * @property {boolean} over whether the game has ended
 */

export class HighLowGame {
  /** @type {Card[]} */
  #deck;
  /** @type {Card} */
  #current;
  #streak = 0;
  #over = false;

  /** @param {readonly Card[]} deck the cards in dealing order; the first one shows at start */
  constructor(deck) {
    if (deck.length < 2) throw new TypeError('a deck needs at least two cards');
    this.#deck = [...deck];
    this.#current = /** @type {Card} */ (this.#deck.shift());
  }

  get current() {
    return this.#current;
  }
  get streak() {
    return this.#streak;
  }
  get over() {
    return this.#over;
  }
  get cardsLeft() {
    return this.#deck.length;
  }

  /**
   * Turns over the next card and scores the call.
   * @param {Guess} guess
   * @returns {GuessResult}
   */
  guess(guess) {
    if (guess !== 'higher' && guess !== 'lower') {
      throw new TypeError(`a guess is "higher" or "lower", got ${JSON.stringify(guess)}`);
    }
    if (this.#over) throw new Error('the game is over');
    const card = /** @type {Card} */ (this.#deck.shift());
    /** @type {Outcome} */
    let outcome = 'push';
    if (card.rank !== this.#current.rank) {
      const isHigher = card.rank > this.#current.rank;
      outcome = isHigher === (guess === 'higher') ? 'right' : 'wrong';
    }
    if (outcome === 'right') this.#streak += 1;
    this.#current = card;
    this.#over = outcome === 'wrong' || this.#deck.length === 0;
    return { card, outcome, streak: this.#streak, over: this.#over };
  }
}
