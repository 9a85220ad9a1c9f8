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
 * Logs the player in and returns their access token.
 * @param {LoginOptions} options
 * @returns {Promise<string>}
 */
export async function login(options) {
  const auth = options.authUrl.replace(/\/+$/, '');
  const sleep = options.sleep ?? delay;
  const description = options.description ?? `High-Low terminal on ${platform()} ${hostname()}`;
  const startResponse = await fetch(`${auth}/cli`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      options.gameId ? { description, gameId: options.gameId } : { description },
    ),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const start = /** @type {Record<string, unknown>} */ (await startResponse.json());
  if (!startResponse.ok) {
    throw new LoginError(
      'login_failed',
      `the sign-in service refused: ${String(start['message'])}`,
    );
  }
  const { browserUrl, requestorId, token, userCode } = /** @type {Record<string, string>} */ (
    start
  );
  let intervalSeconds = Number(start['interval']) || 5;
  const expiresInSeconds = Number(start['expires_in']) || 600;
  // browserUrl is a path on the sign-in service.
  options.onPrompt({
    url: new URL(String(browserUrl), `${auth}/`).href,
    userCode: String(userCode),
    expiresInSeconds,
  });

  const deadline = Date.now() + expiresInSeconds * 1000;
  for (;;) {
    await sleep(intervalSeconds * 1000);
    const response = await fetch(`${auth}/cli/${encodeURIComponent(String(requestorId))}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = /** @type {Record<string, unknown>} */ (await response.json().catch(() => ({})));
    if (response.ok && typeof body['access_token'] === 'string') return body['access_token'];
    const error = body['error'];
    if (error === 'authorization_pending') {
      if (Date.now() > deadline) throw new LoginError('expired_token', 'the login expired');
      continue;
    }
    if (error === 'slow_down') {
      intervalSeconds += SLOW_DOWN_STEP_SECONDS;
      continue;
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
}
