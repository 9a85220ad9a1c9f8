import { describe, expect, it } from 'vitest';
import { HighLowGame, cardName, orderedDeck, shuffle, type Card } from '../src/game.js';

const cards = (...ranks: number[]): Card[] => ranks.map((rank) => ({ rank, suit: '♠' }));

describe('the deck', () => {
  it('has 52 distinct cards', () => {
    const deck = orderedDeck();
    expect(deck).toHaveLength(52);
    expect(new Set(deck.map(cardName)).size).toBe(52);
  });

  it('is shuffled with the random source it is given, keeping every card', () => {
    const deck = orderedDeck();
    // randomBelow always 0: each position swaps with the first, a fixed permutation.
    const shuffled = shuffle(deck, () => 0);
    expect(shuffled).not.toEqual(deck);
    expect(shuffled.map(cardName).sort()).toEqual(deck.map(cardName).sort());
    expect(shuffle(deck, (n) => n - 1)).toEqual(deck);
  });

  it('shuffles with crypto.randomInt by default', () => {
    const deck = orderedDeck();
    const a = shuffle(deck);
    expect(a.map(cardName).sort()).toEqual(deck.map(cardName).sort());
  });

  it.each([
    [{ rank: 14, suit: '♥' }, 'A♥'],
    [{ rank: 11, suit: '♣' }, 'J♣'],
    [{ rank: 10, suit: '♦' }, '10♦'],
  ])('names %o %s', (card, name) => {
    expect(cardName(card)).toBe(name);
  });
});

describe('a game of higher or lower', () => {
  it('counts right calls as the streak and ends on the first wrong one', () => {
    const game = new HighLowGame(cards(7, 9, 3, 12, 2, 5));
    expect(game.current.rank).toBe(7);
    expect(game.guess('higher')).toEqual({
      card: { rank: 9, suit: '♠' },
      outcome: 'right',
      streak: 1,
      over: false,
    });
    expect(game.guess('lower')).toMatchObject({ outcome: 'right', streak: 2, over: false });
    expect(game.guess('lower')).toMatchObject({ outcome: 'wrong', streak: 2, over: true });
    expect(game.over).toBe(true);
    expect(() => game.guess('higher')).toThrow('the game is over');
  });

  it('calls a card of the same rank a push: no point, the game goes on', () => {
    const game = new HighLowGame(cards(8, 8, 10));
    expect(game.guess('lower')).toMatchObject({ outcome: 'push', streak: 0, over: false });
    expect(game.guess('higher')).toMatchObject({ outcome: 'right', streak: 1, over: true });
  });

  it('ends with the full streak when the deck runs out', () => {
    const game = new HighLowGame(cards(2, 3, 4, 5));
    for (const _ of [1, 2]) expect(game.guess('higher').over).toBe(false);
    expect(game.guess('higher')).toMatchObject({ outcome: 'right', streak: 3, over: true });
    expect(game.cardsLeft).toBe(0);
  });

  it.each(['up', '', undefined, 'HIGHER'])('refuses the guess %s', (guess) => {
    const game = new HighLowGame(cards(2, 3));
    expect(() => game.guess(guess as 'higher')).toThrow(TypeError);
    expect(game.streak).toBe(0);
    expect(game.over).toBe(false);
  });

  it('needs at least two cards', () => {
    expect(() => new HighLowGame(cards(2))).toThrow('a deck needs at least two cards');
  });
});
