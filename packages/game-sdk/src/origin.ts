/**
 * Arcade origins a game can name instead of typing one out. Any other arcade, such as a
 * self-hosted coinop, is given by its origin string (`'https://arcade.example.com'`).
 *
 * - `DEV`: the demo arcade of a local coinop, its web app on `http://127.0.0.1:8082` (the port
 *   after the API's 8080 and the sign-in service's 8081).
 * - `PROD`: the production Haste arcade, as in `haste-arcade-sdk`, so a game that moves to this
 *   library keeps working there unchanged.
 * - `HASTE_DEV`: the Haste demo arcade, `haste-arcade-sdk`'s `Origin.DEV`.
 *
 * @example
 * ```ts
 * import { GameService, Origin } from '@coinop/game-sdk';
 * const game = new GameService('c0ffee00-0000-4000-8000-000000000001', Origin.DEV);
 * ```
 */
export const Origin = {
  DEV: 'http://127.0.0.1:8082',
  PROD: 'https://app.hastearcade.com',
  HASTE_DEV: 'https://dev.hastearcade.com',
} as const;

/**
 * One of the named arcade origins.
 *
 * @example
 * ```ts
 * import { Origin } from '@coinop/game-sdk';
 * const origin: Origin = Origin.PROD;
 * ```
 */
export type Origin = (typeof Origin)[keyof typeof Origin];

/**
 * Checks and normalises an arcade origin: `http:` or `https:`, no credentials, path, query or
 * fragment (a trailing `/` is dropped). A wrong origin is a programming error: `TypeError`.
 * Internal: `new GameService()` calls it.
 */
export function normalizeArcadeOrigin(origin: string): string {
  const url = parseUrl(origin);
  if (
    url === undefined ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== ''
  ) {
    throw new TypeError(
      `arcade origin must be http(s)://host[:port], got ${JSON.stringify(origin)}`,
    );
  }
  return url.origin;
}

// URL.canParse would do, but Safari before 17 lacks it.
function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
