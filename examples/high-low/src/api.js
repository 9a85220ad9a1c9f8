// @ts-check
import { randomUUID } from 'node:crypto';
import { HighLowGame, cardName } from './game.js';
import { HttpError, readJson } from './http.js';
import { scoreView, view } from './sessions.js';

/**
 * The game's API (`/api/…`) as the web page and the terminal client call it: the game and its
 * tiers, a new game (its play opened first), a guess, a game's state, and the web page's
 * sign-ins.
 */
export class HighLowApi {
  #arcade;
  #authUrl;
  #sessions;
  #logins;
  #newDeck;
  #now;

  /**
   * @param {{
   *   arcade: import('@coinop/server-sdk').Arcade,
   *   authUrl: string,
   *   sessions: import('./sessions.js').GameSessions,
   *   logins: import('./web-logins.js').WebLogins,
   *   newDeck: () => import('./game.js').Card[],
   *   now: () => number,
   * }} deps
   */
  constructor({ arcade, authUrl, sessions, logins, newDeck, now }) {
    this.#arcade = arcade;
    this.#authUrl = authUrl;
    this.#sessions = sessions;
    this.#logins = logins;
    this.#newDeck = newDeck;
    this.#now = now;
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {import('node:http').IncomingMessage} req
   * @returns {Promise<{ status: number, body: unknown }>}
   */
  async route(method, path, req) {
    if (method === 'GET' && path === '/api/game') return this.#game();
    if (method === 'POST' && path === '/api/games') return this.#newGame(req);
    const guessMatch = /^\/api\/games\/([0-9a-f-]{36})\/guess$/.exec(path);
    if (method === 'POST' && guessMatch) {
      return this.#guess(/** @type {string} */ (guessMatch[1]), req);
    }
    if (method === 'POST' && path === '/api/logins') return this.#logins.start();
    const loginMatch = /^\/api\/logins\/([0-9a-f-]{36})\/token$/.exec(path);
    if (method === 'POST' && loginMatch) {
      return this.#logins.token(/** @type {string} */ (loginMatch[1]));
    }
    const gameMatch = /^\/api\/games\/([0-9a-f-]{36})$/.exec(path);
    if (method === 'GET' && gameMatch) {
      const playerId = await this.#playerOf(req);
      const session = this.#sessions.of(/** @type {string} */ (gameMatch[1]), playerId);
      return { status: 200, body: { ...view(session), score: scoreView(session) } };
    }
    throw new HttpError(404, 'not_found', `no route ${method} ${path}`);
  }

  /** The game, its tiers and the sign-in service. */
  async #game() {
    const arcade = this.#arcade;
    const tiers = await arcade.leaderboards();
    return {
      status: 200,
      body: {
        gameId: arcade.game.id,
        name: arcade.game.name,
        authUrl: this.#authUrl,
        // The arcade's own text of each cost (`formattedCostString`): exact, ready to show.
        tiers: tiers.map((t) => ({ id: t.id, name: t.name, cost: t.formattedCostString })),
      },
    };
  }

  /** @param {import('node:http').IncomingMessage} req */
  async #newGame(req) {
    const playerId = await this.#playerOf(req);
    const body = await readJson(req);
    const leaderboardId = body['leaderboardId'];
    if (typeof leaderboardId !== 'string' || leaderboardId === '') {
      throw new HttpError(400, 'validation_failed', 'leaderboardId must be a tier id');
    }
    // The play first: no card is dealt until the arcade has locked the cost (spec 4.1 step 4).
    const play = await this.#arcade.play(playerId, leaderboardId);
    this.#sessions.dropIdle();
    /** @type {import('./sessions.js').Session} */
    const session = {
      id: randomUUID(),
      playerId,
      play,
      game: new HighLowGame(this.#newDeck()),
      scoreKey: randomUUID(),
      result: null,
      touchedAt: this.#now(),
    };
    this.#sessions.add(session);
    return { status: 201, body: view(session) };
  }

  /**
   * @param {string} gameId
   * @param {import('node:http').IncomingMessage} req
   */
  async #guess(gameId, req) {
    const playerId = await this.#playerOf(req);
    const session = this.#sessions.of(gameId, playerId);
    if (session.game.over) {
      // Only reachable when scoring failed before: submit it again, with the same key.
      if (session.result !== null) {
        throw new HttpError(409, 'game_over', `game ${session.id} is over`);
      }
      await this.#submitScore(session);
      return { status: 200, body: { ...view(session), score: scoreView(session) } };
    }
    const body = await readJson(req);
    const guess = body['guess'];
    if (guess !== 'higher' && guess !== 'lower') {
      throw new HttpError(400, 'validation_failed', 'guess must be "higher" or "lower"');
    }
    const turn = session.game.guess(guess);
    const answer = { ...view(session), card: cardName(turn.card), outcome: turn.outcome };
    if (turn.over) await this.#submitScore(session);
    return { status: 200, body: { ...answer, score: scoreView(session) } };
  }

  /** @param {import('node:http').IncomingMessage} req */
  async #playerOf(req) {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    // The SDK refuses a missing token too (spec 5.3 rule 5); it says why in its error.
    const { playerId } = await this.#arcade.validatePlayerToken(match?.[1] ?? null);
    return playerId;
  }

  /** @param {import('./sessions.js').Session} session */
  async #submitScore(session) {
    session.result ??= await this.#arcade.score(session.play, session.game.streak, {
      idempotencyKey: session.scoreKey,
    });
    return session.result;
  }
}
