/** The arcade API as the app sees it: through its own origin, under /api. */

export interface Tier {
  id: string;
  name: string;
  cost: number;
  currency: 'HST';
  formattedCostString: string;
}

export interface Leader {
  playerId: string;
  score: number;
  name: string;
  avatar: string;
}

export interface CatalogGame {
  id: string;
  name: string;
  tagLine: string;
  category: string;
  coverUrl: string;
  url: string;
  leaderboards: Tier[];
}

export interface Game extends Omit<CatalogGame, 'leaderboards'> {
  description: string;
  developerInfo: string;
  scoreDisplay: 'NORMAL' | 'REVERSE';
  published: boolean;
  leaderboards: (Tier & { leadersMax: number; leaders: Leader[] })[];
}

/** An API error: the problem+json `code` and `message`, or the HTTP status when there is none. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(`/api${path}`, { headers: { accept: 'application/json' }, signal });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { code?: string; message?: string } | null;
    throw new ApiError(
      res.status,
      body?.code ?? `http_${res.status}`,
      body?.message ?? `the arcade answered ${res.status}`,
    );
  }
  return (await res.json()) as T;
}

export async function listGames(
  filter: { search?: string; category?: string },
  signal?: AbortSignal,
): Promise<CatalogGame[]> {
  const query = new URLSearchParams();
  if (filter.search) query.set('search', filter.search);
  if (filter.category) query.set('category', filter.category);
  const qs = query.toString();
  const body = await getJson<{ games: CatalogGame[] }>(
    `/catalog/games${qs ? `?${qs}` : ''}`,
    signal,
  );
  return body.games;
}

export function getGame(gameId: string, signal?: AbortSignal): Promise<Game> {
  return getJson<Game>(`/catalog/games/${encodeURIComponent(gameId)}`, signal);
}
