// @ts-check
import { randomUUID } from 'node:crypto';
import { HttpError } from './http.js';
import { pollLogin, startLogin } from './login.js';

/** Sign-ins started from the web page and not yet finished, kept at once; more are refused. */
export const LOGINS_MAX = 1000;
/** How the web page names itself on the sign-in approval. */
const WEB_LOGIN_DESCRIPTION = 'High-Low web page in the arcade';

/**
 * The web page's sign-ins: a CLI login naming this game, which the arcade page around it has the
 * player approve (bridge `login`). The poll token never leaves this server: the page names each
 * sign-in by a handle of its own.
 */
export class WebLogins {
  /**
   * Sign-ins the web page started: its own handle → the login, whose poll token stays here.
   * @type {Map<string, {
   *   login: import('./login.js').StartedLogin, expiresAt: number, polledAt: number }>}
   */
  #logins = new Map();
  #arcade;
  #authUrl;
  #now;

  /**
   * @param {{ arcade: import('@coinop/server-sdk').Arcade, authUrl: string, now: () => number }} deps
   */
  constructor({ arcade, authUrl, now }) {
    this.#arcade = arcade;
    this.#authUrl = authUrl;
    this.#now = now;
  }

  /**
   * Starts a sign-in: the page's handle for it, and what the arcade page asks the player to
   * approve.
   * @returns {Promise<{ status: number, body: unknown }>}
   */
  async start() {
    const logins = this.#logins;
    for (const [id, pending] of logins) if (pending.expiresAt < this.#now()) logins.delete(id);
    if (logins.size >= LOGINS_MAX) {
      throw new HttpError(503, 'too_many_logins', 'too many sign-ins at once; retry shortly');
    }
    const login = await startLogin({
      authUrl: this.#authUrl,
      description: WEB_LOGIN_DESCRIPTION,
      gameId: this.#arcade.game.id,
    });
    const loginId = randomUUID();
    logins.set(loginId, {
      login,
      expiresAt: this.#now() + login.expiresInSeconds * 1000,
      polledAt: Number.NEGATIVE_INFINITY,
    });
    return {
      status: 201,
      body: { loginId, requestorId: login.requestorId, userCode: login.userCode },
    };
  }

  /**
   * The player's token once the sign-in `loginId` is approved (200), pending until then (202).
   * @param {string} loginId
   * @returns {Promise<{ status: number, body: unknown }>}
   */
  async token(loginId) {
    const logins = this.#logins;
    const pending = logins.get(loginId);
    if (!pending) throw new HttpError(404, 'login_not_found', `no sign-in ${loginId} here`);
    // The sign-in service wants its interval between polls while pending (RFC 8628 §3.5); an
    // approved login is handed out at once, and the page asks only once the arcade approved.
    if (this.#now() - pending.polledAt < pending.login.intervalSeconds * 1000) {
      return { status: 202, body: { status: 'pending' } };
    }
    pending.polledAt = this.#now();
    let polled;
    try {
      polled = await pollLogin(pending.login);
    } catch (error) {
      logins.delete(loginId);
      throw error;
    }
    if (polled.status === 'pending') return { status: 202, body: { status: 'pending' } };
    logins.delete(loginId);
    const player = await this.#arcade.validatePlayerToken(polled.token);
    return {
      status: 200,
      body: { status: 'approved', token: polled.token, displayName: player.displayName },
    };
  }
}
