// @ts-check
import { cardName } from './game.js';
import { HttpError } from './http.js';

/** A game left alone this long is dropped (its play expires unscored at the arcade). */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** Games kept in memory at once; a new one past this drops the oldest. */
export const SESSIONS_MAX = 10_000;

/**
 * @typedef {object} Session
 * @property {string} id
 * @property {string} playerId
 * @property {import('@coinop/server-sdk').Play} play
 * @property {import('./game.js').HighLowGame} game
 * @property {string} scoreKey idempotency key of the score, the same on every retry
 * @property {import('@coinop/server-sdk').ScoreResult | null} result
 * @property {number} touchedAt
 */

/** The games being played on this server, each its player's own, kept in memory. */
export class GameSessions {
  /** @type {Map<string, Session>} */
  #sessions = new Map();
  #now;

  /** @param {() => number} now milliseconds, for session idleness */
  constructor(now) {
    this.#now = now;
  }

  /** Drops the games left alone too long, and the oldest ones past `SESSIONS_MAX`. */
  dropIdle() {
    const sessions = this.#sessions;
    const cutoff = this.#now() - SESSION_IDLE_MS;
    for (const [id, s] of sessions) if (s.touchedAt < cutoff) sessions.delete(id);
    while (sessions.size >= SESSIONS_MAX) {
      const oldest = sessions.keys().next();
      if (oldest.done) break;
      sessions.delete(oldest.value);
    }
  }

  /** @param {Session} session */
  add(session) {
    this.#sessions.set(session.id, session);
  }

  /**
   * The game `id` of player `playerId`, touched; 404 when there is none, 403 when it is another
   * player's.
   * @param {string} id
   * @param {string} playerId
   */
  of(id, playerId) {
    const session = this.#sessions.get(id);
    if (!session) throw new HttpError(404, 'game_not_found', `no game ${id} on this server`);
    if (session.playerId !== playerId) {
      throw new HttpError(403, 'game_of_another_player', `game ${id} belongs to another player`);
    }
    session.touchedAt = this.#now();
    return session;
  }
}

/**
 * A game as the client sees it.
 * @param {Session} session
 */
export const view = (session) => ({
  gameId: session.id,
  playId: session.play.id,
  card: cardName(session.game.current),
  cardsLeft: session.game.cardsLeft,
  streak: session.game.streak,
  over: session.game.over,
});

/**
 * Its score once submitted, else null.
 * @param {Session} session
 */
export const scoreView = (session) =>
  session.result === null
    ? null
    : {
        score: session.result.score,
        isWinner: session.result.isWinner,
        leaderRank: session.result.leaderRank,
      };
