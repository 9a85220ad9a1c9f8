// @ts-check
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { ArcadeApiError, ArcadeNetworkError, PlayerTokenError } from '@coinop/server-sdk';
import { highLowCover } from './cover.js';
import { HighLowGame, cardName, orderedDeck, shuffle } from './game.js';
import { LoginError, pollLogin, startLogin } from './login.js';

/**
 * The authoritative game server (spec 4.1): the player's token is validated before its playerId
 * is trusted, the arcade's play is opened before the first card is dealt, every card is drawn and
 * judged here, and the streak is submitted as the score when the game ends. The client only
 * sends its calls.
 */

export const DEFAULT_PORT = 8091;
export const DEFAULT_HOST = '127.0.0.1';
/** A game left alone this long is dropped (its play expires unscored at the arcade). */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** Games kept in memory at once; a new one past this drops the oldest. */
export const SESSIONS_MAX = 10_000;
/** Request bodies here are a few dozen bytes. */
const BODY_LIMIT_BYTES = 4096;
/** The arcade whose page embeds the web client unless told otherwise: the game-sdk's `Origin.DEV`. */
export const DEFAULT_ARCADE = 'http://127.0.0.1:8082';
/** Sign-ins started from the web page and not yet finished, kept at once; more are refused. */
export const LOGINS_MAX = 1000;
/** How the web page names itself on the sign-in approval. */
const WEB_LOGIN_DESCRIPTION = 'High-Low web page in the arcade';

const WEB_DIR = new URL('../web/', import.meta.url);
const SDK_BUNDLE = createRequire(import.meta.url).resolve('@coinop/game-sdk/game-sdk.min.js');
const WEB_FILES = {
  '/play.js': { file: new URL('play.js', WEB_DIR), type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: new URL('style.css', WEB_DIR), type: 'text/css; charset=utf-8' },
  '/game-sdk.min.js': { file: SDK_BUNDLE, type: 'text/javascript; charset=utf-8' },
};

/**
 * @typedef {import('@coinop/server-sdk').Arcade} Arcade
 * @typedef {import('./game.js').Card} Card
 * @typedef {object} Session
 * @property {string} id
 * @property {string} playerId
 * @property {import('@coinop/server-sdk').Play} play
 * @property {HighLowGame} game
 * @property {string} scoreKey idempotency key of the score, the same on every retry
 * @property {import('@coinop/server-sdk').ScoreResult | null} result
 * @property {number} touchedAt
 */

/**
 * @typedef {object} HighLowServerOptions
 * @property {Arcade} arcade the SDK, built with the game's client credentials
 * @property {string} authUrl the sign-in service the client logs the player in with
 * @property {string} [arcadeOrigin] the arcade web app whose page embeds the web client
 * @property {number} [port]
 * @property {string} [host]
 * @property {() => Card[]} [newDeck] the deck of each new game; default a crypto shuffle
 * @property {() => number} [now] milliseconds, for session idleness
 */

class HttpError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** @param {HighLowServerOptions} options */
export async function startHighLowServer(options) {
  const { arcade, authUrl } = options;
  const newDeck = options.newDeck ?? (() => shuffle(orderedDeck()));
  const now = options.now ?? Date.now;
  /** @type {Map<string, Session>} */
  const sessions = new Map();
  const cover = highLowCover();
  const arcadeOrigin = (options.arcadeOrigin ?? DEFAULT_ARCADE).replace(/\/+$/, '');
  const pageTemplate = await readFile(new URL('index.html', WEB_DIR), 'utf8');
  /** Sign-ins the web page started: its own handle → the login, whose poll token stays here. */
  /**
   * @type {Map<string, {
   *   login: import('./login.js').StartedLogin, expiresAt: number, polledAt: number }>}
   */
  const logins = new Map();
  let selfUrl = '';

  /** @param {import('node:http').IncomingMessage} req */
  async function playerOf(req) {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    // The SDK refuses a missing token too (spec 5.3 rule 5); it says why in its error.
    const { playerId } = await arcade.validatePlayerToken(match?.[1] ?? null);
    return playerId;
  }

  function dropIdle() {
    const cutoff = now() - SESSION_IDLE_MS;
    for (const [id, s] of sessions) if (s.touchedAt < cutoff) sessions.delete(id);
    while (sessions.size >= SESSIONS_MAX) {
      const oldest = sessions.keys().next();
      if (oldest.done) break;
      sessions.delete(oldest.value);
    }
  }

  /**
   * @param {string} id
   * @param {string} playerId
   */
  function sessionOf(id, playerId) {
    const session = sessions.get(id);
    if (!session) throw new HttpError(404, 'game_not_found', `no game ${id} on this server`);
    if (session.playerId !== playerId) {
      throw new HttpError(403, 'game_of_another_player', `game ${id} belongs to another player`);
    }
    session.touchedAt = now();
    return session;
  }

  /** @param {Session} session */
  async function submitScore(session) {
    session.result ??= await arcade.score(session.play, session.game.streak, {
      idempotencyKey: session.scoreKey,
    });
    return session.result;
  }

  /** @param {Session} session */
  const view = (session) => ({
    gameId: session.id,
    playId: session.play.id,
    card: cardName(session.game.current),
    cardsLeft: session.game.cardsLeft,
    streak: session.game.streak,
    over: session.game.over,
  });

  /** @param {Session} session */
  const scoreView = (session) =>
    session.result === null
      ? null
      : {
          score: session.result.score,
          isWinner: session.result.isWinner,
          leaderRank: session.result.leaderRank,
        };

  /**
   * @param {string} method
   * @param {string} path
   * @param {import('node:http').IncomingMessage} req
   * @returns {Promise<{ status: number, body: unknown }>}
   */
  async function route(method, path, req) {
    if (method === 'GET' && path === '/api/game') {
      const tiers = await arcade.leaderboards();
      return {
        status: 200,
        body: {
          gameId: arcade.game.id,
          name: arcade.game.name,
          authUrl,
          // The arcade's own text of each cost (`formattedCostString`): exact, ready to show.
          tiers: tiers.map((t) => ({ id: t.id, name: t.name, cost: t.formattedCostString })),
        },
      };
    }
    if (method === 'POST' && path === '/api/games') {
      const playerId = await playerOf(req);
      const body = await readJson(req);
      const leaderboardId = body['leaderboardId'];
      if (typeof leaderboardId !== 'string' || leaderboardId === '') {
        throw new HttpError(400, 'validation_failed', 'leaderboardId must be a tier id');
      }
      // The play first: no card is dealt until the arcade has locked the cost (spec 4.1 step 4).
      const play = await arcade.play(playerId, leaderboardId);
      dropIdle();
      /** @type {Session} */
      const session = {
        id: randomUUID(),
        playerId,
        play,
        game: new HighLowGame(newDeck()),
        scoreKey: randomUUID(),
        result: null,
        touchedAt: now(),
      };
      sessions.set(session.id, session);
      return { status: 201, body: view(session) };
    }
    const guessMatch = /^\/api\/games\/([0-9a-f-]{36})\/guess$/.exec(path);
    if (method === 'POST' && guessMatch) {
      const playerId = await playerOf(req);
      const session = sessionOf(/** @type {string} */ (guessMatch[1]), playerId);
      if (session.game.over) {
        // Only reachable when scoring failed before: submit it again, with the same key.
        if (session.result !== null) {
          throw new HttpError(409, 'game_over', `game ${session.id} is over`);
        }
        await submitScore(session);
        return { status: 200, body: { ...view(session), score: scoreView(session) } };
      }
      const body = await readJson(req);
      const guess = body['guess'];
      if (guess !== 'higher' && guess !== 'lower') {
        throw new HttpError(400, 'validation_failed', 'guess must be "higher" or "lower"');
      }
      const turn = session.game.guess(guess);
      const answer = { ...view(session), card: cardName(turn.card), outcome: turn.outcome };
      if (turn.over) await submitScore(session);
      return { status: 200, body: { ...answer, score: scoreView(session) } };
    }
    if (method === 'POST' && path === '/api/logins') {
      // The web page's sign-in: a CLI login naming this game, which the arcade page around it
      // has the player approve (bridge `login`). The poll token never leaves this server.
      for (const [id, pending] of logins) if (pending.expiresAt < now()) logins.delete(id);
      if (logins.size >= LOGINS_MAX) {
        throw new HttpError(503, 'too_many_logins', 'too many sign-ins at once; retry shortly');
      }
      const login = await startLogin({
        authUrl,
        description: WEB_LOGIN_DESCRIPTION,
        gameId: arcade.game.id,
      });
      const loginId = randomUUID();
      logins.set(loginId, {
        login,
        expiresAt: now() + login.expiresInSeconds * 1000,
        polledAt: Number.NEGATIVE_INFINITY,
      });
      return {
        status: 201,
        body: { loginId, requestorId: login.requestorId, userCode: login.userCode },
      };
    }
    const loginMatch = /^\/api\/logins\/([0-9a-f-]{36})\/token$/.exec(path);
    if (method === 'POST' && loginMatch) {
      const loginId = /** @type {string} */ (loginMatch[1]);
      const pending = logins.get(loginId);
      if (!pending) throw new HttpError(404, 'login_not_found', `no sign-in ${loginId} here`);
      // The sign-in service wants its interval between polls while pending (RFC 8628 §3.5); an
      // approved login is handed out at once, and the page asks only once the arcade approved.
      if (now() - pending.polledAt < pending.login.intervalSeconds * 1000) {
        return { status: 202, body: { status: 'pending' } };
      }
      pending.polledAt = now();
      let polled;
      try {
        polled = await pollLogin(pending.login);
      } catch (error) {
        logins.delete(loginId);
        throw error;
      }
      if (polled.status === 'pending') return { status: 202, body: { status: 'pending' } };
      logins.delete(loginId);
      const player = await arcade.validatePlayerToken(polled.token);
      return {
        status: 200,
        body: { status: 'approved', token: polled.token, displayName: player.displayName },
      };
    }
    const gameMatch = /^\/api\/games\/([0-9a-f-]{36})$/.exec(path);
    if (method === 'GET' && gameMatch) {
      const playerId = await playerOf(req);
      const session = sessionOf(/** @type {string} */ (gameMatch[1]), playerId);
      return { status: 200, body: { ...view(session), score: scoreView(session) } };
    }
    throw new HttpError(404, 'not_found', `no route ${method} ${path}`);
  }

  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (method === 'GET' && (path === '/' || path === '/index.html')) {
      const page = pageTemplate
        .replaceAll('%GAME_ID%', escapeHtml(arcade.game.id))
        .replaceAll('%ARCADE%', escapeHtml(arcadeOrigin))
        .replaceAll('%SELF_URL%', escapeHtml(selfUrl))
        .replaceAll('%NAME%', escapeHtml(arcade.game.name));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS });
      res.end(page);
      return;
    }
    const webFile = WEB_FILES[/** @type {keyof typeof WEB_FILES} */ (path)];
    if (method === 'GET' && webFile) {
      readFile(webFile.file).then(
        (content) => {
          res.writeHead(200, { 'content-type': webFile.type, ...PAGE_HEADERS });
          res.end(content);
        },
        (error) => {
          console.error('high-low:', error);
          res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error\n');
        },
      );
      return;
    }
    if (method === 'GET' && path === '/cover.png') {
      res.writeHead(200, { 'content-type': 'image/png', ...SAFE_HEADERS });
      res.end(cover);
      return;
    }
    route(method, path, req).then(
      ({ status, body }) => sendJson(res, status, body),
      (error) => {
        const { status, code, message, grantUrl } = problemOf(error);
        if (status >= 500) console.error('high-low:', error);
        sendJson(res, status, { code, message, ...(grantUrl ? { grantUrl } : {}) });
      },
    );
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST, () =>
      resolve(undefined),
    );
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const host = options.host ?? DEFAULT_HOST;
  selfUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  return {
    url: selfUrl,
    /** @returns {Promise<void>} */
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const SAFE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; img-src 'self'",
};

/** The web client: everything from this origin, no inline script. */
const PAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; " +
    "form-action 'none'",
  'cache-control': 'no-cache',
};

/** @param {string} value */
function escapeHtml(value) {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * What to answer for an error: the player-token errors are 401 with the SDK's code, the
 * arcade's refusals (no funds, unknown tier, no consent) keep the arcade's status and code, and
 * an arcade that does not answer is 502.
 * @param {unknown} error
 * @returns {{ status: number, code: string, message: string, grantUrl?: string }}
 */
function problemOf(error) {
  if (error instanceof HttpError) return error;
  if (error instanceof PlayerTokenError) {
    return { status: 401, code: error.code, message: error.message };
  }
  if (error instanceof LoginError) {
    const status =
      error.code === 'access_denied' ? 403 : error.code === 'expired_token' ? 410 : 502;
    return { status, code: error.code, message: error.message };
  }
  if (error instanceof ArcadeApiError && error.status < 500) {
    // A player who has not allowed the game to charge them is sent where they can.
    const grantUrl = error.details?.['grantUrl'];
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      ...(typeof grantUrl === 'string' ? { grantUrl } : {}),
    };
  }
  if (error instanceof ArcadeApiError || error instanceof ArcadeNetworkError) {
    return { status: 502, code: 'arcade_unavailable', message: 'the arcade did not answer; retry' };
  }
  return { status: 500, code: 'internal_error', message: 'internal error' };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 */
function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...SAFE_HEADERS });
  res.end(JSON.stringify(body));
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<Record<string, unknown>>}
 */
async function readJson(req) {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > BODY_LIMIT_BYTES) {
      throw new HttpError(413, 'body_too_large', `bodies are at most ${BODY_LIMIT_BYTES} bytes`);
    }
  }
  try {
    const value = text === '' ? {} : JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // Answered below.
  }
  throw new HttpError(400, 'validation_failed', 'the body must be a JSON object');
}
