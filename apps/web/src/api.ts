import type {
  CatalogGame,
  CatalogGameList,
  CatalogSort,
  DeveloperPage,
  Game,
  GamePayouts,
  GameScreenshot,
  GameScreenshotList,
} from '@coinop/protocol';

/**
 * The arcade API as the app sees it: through its own origin, under /api. What it answers is
 * typed by the wire types of `@coinop/protocol`, which the API's schemas are checked against.
 */

/** An API error: the problem+json `code` and `message`, or the HTTP status when there is none. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The field a `400 validation_failed` names (`details.field`), to show the message by it. */
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

/**
 * One JSON request to the arcade through this origin (`/api/...` or `/auth/...`); a non-2xx
 * answer throws ApiError with the problem+json `code` and `message`, a 204 resolves undefined.
 */
export async function requestJson<T>(
  url: string,
  options: {
    method?: string;
    body?: unknown;
    token?: string | null;
    signal?: AbortSignal;
    headers?: Record<string, string>;
  } = {},
): Promise<T> {
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
  // A string body with its own content type (a verifier module) is sent as it is.
  const raw = typeof options.body === 'string' && options.headers?.['content-type'] !== undefined;
  if (options.body !== undefined && !raw) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body:
      options.body === undefined
        ? null
        : raw
          ? (options.body as string)
          : JSON.stringify(options.body),
    signal: options.signal ?? null,
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as {
      code?: string;
      message?: string;
      details?: { field?: unknown };
    } | null;
    const field = body?.details?.field;
    throw new ApiError(
      res.status,
      body?.code ?? `http_${res.status}`,
      body?.message ?? `the arcade answered ${res.status}`,
      typeof field === 'string' ? field : null,
    );
  }
  // 204 No Content (a removal) has no body to read.
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return requestJson<T>(`/api${path}`, signal === undefined ? {} : { signal });
}

export async function listGames(
  filter: { search?: string; category?: string },
  signal?: AbortSignal,
): Promise<readonly CatalogGame[]> {
  const query = new URLSearchParams();
  if (filter.search) query.set('search', filter.search);
  if (filter.category) query.set('category', filter.category);
  const qs = query.toString();
  const body = await getJson<CatalogGameList>(`/catalog/games${qs ? `?${qs}` : ''}`, signal);
  return body.games;
}

export function getGame(gameId: string, signal?: AbortSignal): Promise<Game> {
  return getJson<Game>(`/catalog/games/${encodeURIComponent(gameId)}`, signal);
}

export async function listSortedGames(
  filter: { search?: string; category?: string; sort: CatalogSort },
  signal?: AbortSignal,
): Promise<readonly CatalogGame[]> {
  const query = new URLSearchParams();
  if (filter.search) query.set('search', filter.search);
  if (filter.category) query.set('category', filter.category);
  // `new` is the catalog's own order: left out, so the request is the one it always was.
  if (filter.sort !== 'new') query.set('sort', filter.sort);
  const qs = query.toString();
  const body = await getJson<CatalogGameList>(`/catalog/games${qs ? `?${qs}` : ''}`, signal);
  return body.games;
}

export function getGamePayouts(gameId: string, signal?: AbortSignal): Promise<GamePayouts> {
  return getJson<GamePayouts>(`/catalog/games/${encodeURIComponent(gameId)}/payouts`, signal);
}

export function getDeveloperPage(
  developerId: string,
  signal?: AbortSignal,
): Promise<DeveloperPage> {
  return getJson<DeveloperPage>(`/catalog/developers/${encodeURIComponent(developerId)}`, signal);
}

export async function listScreenshots(
  gameId: string,
  signal?: AbortSignal,
): Promise<readonly GameScreenshot[]> {
  const path = `/catalog/games/${encodeURIComponent(gameId)}/screenshots`;
  return (await getJson<GameScreenshotList>(path, signal)).screenshots;
}
