// @ts-check
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The game server's client credentials: from the environment, or, for a local arcade only, a new
 * client made through the arcade's admin API with the admin token it keeps in its data directory.
 */

export const GAME_NAME = 'High-Low';
/** `npm start` starts the arcade and this server together: wait this long for the arcade. */
export const ARCADE_WAIT_MS = 120_000;
const RETRY_INTERVAL_MS = 1000;
const REQUEST_TIMEOUT_MS = 5000;

/**
 * @typedef {object} CredentialOptions
 * @property {string} apiUrl the arcade API
 * @property {string | undefined} clientId
 * @property {string | undefined} clientSecret
 * @property {string | undefined} gameId the game on that arcade; found by name when absent
 * @property {string | undefined} adminToken
 * @property {string} dataDir the arcade's data directory, holding `admin-token`
 * @property {(line: string) => void} log
 * @property {number} [waitMs]
 */

/**
 * @param {CredentialOptions} options
 * @returns {Promise<{ clientId: string, clientSecret: string }>}
 */
export async function resolveCredentials(options) {
  if (options.clientId && options.clientSecret) {
    return { clientId: options.clientId, clientSecret: options.clientSecret };
  }
  const api = options.apiUrl.replace(/\/+$/, '');
  const waitMs = options.waitMs ?? ARCADE_WAIT_MS;
  const tokenFile = join(options.dataDir, 'admin-token');
  const adminToken = options.adminToken
    ? options.adminToken
    : await retry(waitMs, `the admin token in ${tokenFile}`, async () => {
        const token = (await readFile(tokenFile, 'utf8')).trim();
        if (token === '') throw new Error(`${tokenFile} is empty`);
        return token;
      });
  const gameId =
    options.gameId ||
    (await retry(waitMs, `the game "${GAME_NAME}" in the catalog of ${api}`, async () => {
      const { games } = /** @type {{ games: { id: string, name: string }[] }} */ (
        await getJson(`${api}/catalog/games`)
      );
      const game = games.find((g) => g.name === GAME_NAME);
      if (!game) throw new Error(`no published game named "${GAME_NAME}"`);
      return game.id;
    }));
  // A client made on an earlier start is used again while its secret still works.
  const cacheFile = join(options.dataDir, 'example-high-low-client.json');
  const cached = await readCachedClient(cacheFile, api, gameId);
  if (cached) return cached;
  const response = await fetch(`${api}/admin/games/${encodeURIComponent(gameId)}/clients`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}` },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = /** @type {{ clientId?: string, clientSecret?: string, message?: string }} */ (
    await response.json().catch(() => ({}))
  );
  if (response.status !== 201 || !body.clientId || !body.clientSecret) {
    throw new Error(
      `could not make a client for game ${gameId}: ${response.status} ${body.message ?? ''}`,
    );
  }
  options.log(
    `no COINOP_CLIENT_ID/COINOP_CLIENT_SECRET: made client ${body.clientId} for game ${gameId} ` +
      `through the admin API of ${api} (a local convenience; set both for any other arcade)`,
  );
  const made = { clientId: body.clientId, clientSecret: body.clientSecret };
  // Beside the admin token, and as private: the arcade's data directory is the operator's.
  await writeFile(cacheFile, JSON.stringify({ api, gameId, ...made }), { mode: 0o600 });
  return made;
}

/**
 * The client saved by an earlier start for this arcade and game, if its secret still gets a
 * write token.
 * @param {string} file
 * @param {string} api
 * @param {string} gameId
 * @returns {Promise<{ clientId: string, clientSecret: string } | null>}
 */
async function readCachedClient(file, api, gameId) {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8'));
    if (saved.api !== api || saved.gameId !== gameId) return null;
    const response = await fetch(`${api}/oauth/writetoken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: saved.clientId, client_secret: saved.clientSecret }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return response.ok ? { clientId: saved.clientId, clientSecret: saved.clientSecret } : null;
  } catch {
    return null;
  }
}

/** @param {string} url */
async function getJson(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

/**
 * Calls `attempt` until it succeeds or `waitMs` has passed, then throws its last error.
 * @template T
 * @param {number} waitMs
 * @param {string} what
 * @param {() => Promise<T>} attempt
 * @returns {Promise<T>}
 */
export async function retry(waitMs, what, attempt) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() >= deadline) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`gave up waiting for ${what}: ${reason}`, { cause: error });
      }
      await sleep(RETRY_INTERVAL_MS);
    }
  }
}
