// @ts-check
import { hostname, platform } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * The CLI login of the sign-in service (spec 4.6, 4.7; RFC 8628 style): start a login, show the
 * player where to approve it, and poll until a player token comes back.
 */

/** How long one request to the sign-in service may take. */
const REQUEST_TIMEOUT_MS = 10_000;
/** RFC 8628 §3.5: on `slow_down` the interval grows by 5 seconds. */
const SLOW_DOWN_STEP_SECONDS = 5;

export class LoginError extends Error {
  /**
   * @param {'access_denied' | 'expired_token' | 'login_failed'} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.name = 'LoginError';
    this.code = code;
  }
}

/**
 * @typedef {object} LoginPrompt
 * @property {string} url the absolute page where the player approves the login
 * @property {string} userCode the code the page must show
 * @property {number} expiresInSeconds
 */

/**
 * @typedef {object} LoginOptions
 * @property {string} authUrl the sign-in service, {auth_url}
 * @property {(prompt: LoginPrompt) => void} onPrompt shows the URL and code to the player
 * @property {string} [description] names this device; default the OS and host name
 * @property {string} [gameId] the game signing in: the approval page names it and offers the
 *   player an allowance for it
 * @property {(ms: number) => Promise<unknown>} [sleep]
 */

/**
 * @typedef {object} StartedLogin
 * @property {string} authUrl the sign-in service, without a trailing slash
 * @property {string} requestorId the login's id
 * @property {string} userCode the code the approval shows
 * @property {string} url the absolute page where the player approves the login
 * @property {string} pollToken the bearer token that polls this login only: keep it private
 * @property {number} intervalSeconds how long to wait between polls (grows on `slow_down`)
 * @property {number} expiresInSeconds
 */

/**
 * Starts a login (spec 4.6): the sign-in service answers the approval page, the code and the
 * token to poll with.
 * @param {{ authUrl: string, description: string, gameId?: string }} options
 * @returns {Promise<StartedLogin>}
 */
export async function startLogin({ authUrl, description, gameId }) {
  const auth = authUrl.replace(/\/+$/, '');
  const response = await fetch(`${auth}/cli`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(gameId ? { description, gameId } : { description }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const start = /** @type {Record<string, unknown>} */ (await response.json().catch(() => ({})));
  if (!response.ok) {
    throw new LoginError(
      'login_failed',
      `the sign-in service refused: ${String(start['message'] ?? response.status)}`,
    );
  }
  return {
    authUrl: auth,
    requestorId: String(start['requestorId']),
    userCode: String(start['userCode']),
    // browserUrl is a path on the sign-in service.
    url: new URL(String(start['browserUrl']), `${auth}/`).href,
    pollToken: String(start['token']),
    intervalSeconds: Number(start['interval']) || 5,
    expiresInSeconds: Number(start['expires_in']) || 600,
  };
}

/**
 * Polls a login once (spec 4.7): the player's token once approved, `pending` before, or a
 * LoginError when it was rejected, expired or refused. On `slow_down` (RFC 8628 §3.5) the
 * login's interval grows by 5 seconds and the answer is `pending`.
 * @param {StartedLogin} started
 * @returns {Promise<{ status: 'pending' } | { status: 'approved', token: string }>}
 */
export async function pollLogin(started) {
  const response = await fetch(
    `${started.authUrl}/cli/${encodeURIComponent(started.requestorId)}`,
    {
      headers: { authorization: `Bearer ${started.pollToken}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    },
  );
  const body = /** @type {Record<string, unknown>} */ (await response.json().catch(() => ({})));
  if (response.ok && typeof body['access_token'] === 'string') {
    return { status: 'approved', token: body['access_token'] };
  }
  const error = body['error'];
  if (error === 'authorization_pending') return { status: 'pending' };
  if (error === 'slow_down') {
    started.intervalSeconds += SLOW_DOWN_STEP_SECONDS;
    return { status: 'pending' };
  }
  if (error === 'access_denied') {
    throw new LoginError('access_denied', 'the login was rejected in the browser');
  }
  if (error === 'expired_token') {
    throw new LoginError('expired_token', 'the login expired before it was approved');
  }
  throw new LoginError(
    'login_failed',
    `the sign-in service answered ${response.status}: ${String(body['message'] ?? '')}`,
  );
}

/**
 * Logs the player in and returns their access token.
 * @param {LoginOptions} options
 * @returns {Promise<string>}
 */
export async function login(options) {
  const sleep = options.sleep ?? delay;
  const started = await startLogin({
    authUrl: options.authUrl,
    description: options.description ?? `High-Low terminal on ${platform()} ${hostname()}`,
    ...(options.gameId ? { gameId: options.gameId } : {}),
  });
  options.onPrompt({
    url: started.url,
    userCode: started.userCode,
    expiresInSeconds: started.expiresInSeconds,
  });
  const deadline = Date.now() + started.expiresInSeconds * 1000;
  for (;;) {
    await sleep(started.intervalSeconds * 1000);
    const polled = await pollLogin(started);
    if (polled.status === 'approved') return polled.token;
    if (Date.now() > deadline) throw new LoginError('expired_token', 'the login expired');
  }
}
