import type { Session } from '../session/session.js';

/** The developer portal's routes (`/api/developer/...`), called with the developer's wallet. */

export type ScoreDisplay = 'NORMAL' | 'REVERSE';

export interface DeveloperTier {
  id: string;
  name: string;
  cost: number;
  currency: 'HST';
  formattedCostString: string;
  leadersMax: number;
}

export interface GameClient {
  clientId: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface DeveloperGame {
  id: string;
  name: string;
  description: string;
  category: string;
  tagLine: string;
  developerInfo: string;
  url: string;
  coverUrl: string;
  scoreDisplay: ScoreDisplay;
  prodDomain: string | null;
  published: boolean;
  createdAt: string;
  leaderboards: DeveloperTier[];
  clients: GameClient[];
}

/** The fields a developer edits; a cover is either `coverUrl` or `coverImage` (a data: URL). */
export interface GameFields {
  name?: string;
  description?: string;
  category?: string;
  tagLine?: string;
  developerInfo?: string;
  scoreDisplay?: ScoreDisplay;
  url?: string;
  prodDomain?: string;
  coverUrl?: string;
  coverImage?: string;
}

export interface ApiKey {
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface NewApiKey {
  apiKey: string;
  prefix: string;
  createdAt: string;
}

export interface ClientSecret {
  clientId: string;
  clientSecret: string;
  createdAt: string;
}

export interface GameStats {
  plays: { total: number; open: number; scored: number; expired: number; voided: number };
  scores: number;
  hstEarned: number;
  recentPlays: {
    playId: string;
    playerName: string;
    leaderboardName: string;
    cost: number;
    status: 'open' | 'scored' | 'expired' | 'voided';
    score: number | null;
    createdAt: string;
  }[];
}

/** A wallet the developer named: the game's server may charge it before the game is published. */
export interface Tester {
  /** Lower-case 0x address. */
  wallet: string;
  addedAt: string;
}

type Call = Session['call'];

const game = (gameId: string) => `/developer/games/${encodeURIComponent(gameId)}`;
const tier = (gameId: string, tierId: string) =>
  `${game(gameId)}/leaderboards/${encodeURIComponent(tierId)}`;
const client = (gameId: string, clientId: string) =>
  `${game(gameId)}/clients/${encodeURIComponent(clientId)}`;
const tester = (gameId: string, wallet: string) =>
  `${game(gameId)}/testers/${encodeURIComponent(wallet)}`;

/** A typed client over the session's `call`, so every request carries the wallet's token. */
export function portalApi(call: Call) {
  return {
    listKeys: async () => (await call<{ keys: ApiKey[] }>('/developer/apikey')).keys,
    createKey: () => call<NewApiKey>('/developer/apikey', {}),
    revokeKey: (prefix: string) =>
      call<ApiKey>(`/developer/apikey/${encodeURIComponent(prefix)}`, undefined, 'DELETE'),

    listGames: async () => (await call<{ games: DeveloperGame[] }>('/developer/games')).games,
    getGame: (gameId: string) => call<DeveloperGame>(game(gameId)),
    createGame: (fields: GameFields) => call<DeveloperGame>('/developer/games', fields),
    updateGame: (gameId: string, fields: GameFields) =>
      call<DeveloperGame>(game(gameId), fields, 'PATCH'),

    addTier: (gameId: string, body: { name: string; cost: number; leadersMax?: number }) =>
      call<DeveloperTier>(`${game(gameId)}/leaderboards`, body),
    updateTier: (gameId: string, tierId: string, body: { name?: string; cost?: number }) =>
      call<DeveloperTier>(tier(gameId, tierId), body, 'PATCH'),
    retireTier: (gameId: string, tierId: string) =>
      call<{ id: string; retired: true }>(tier(gameId, tierId), undefined, 'DELETE'),

    createClient: (gameId: string) => call<ClientSecret>(`${game(gameId)}/clients`, {}),
    rotateClient: (gameId: string, clientId: string) =>
      call<ClientSecret>(`${client(gameId, clientId)}/rotate`, {}),
    revokeClient: (gameId: string, clientId: string) =>
      call<GameClient>(client(gameId, clientId), undefined, 'DELETE'),

    listTesters: async (gameId: string) =>
      (await call<{ testers: Tester[] }>(`${game(gameId)}/testers`)).testers,
    addTester: (gameId: string, wallet: string) =>
      call<Tester>(tester(gameId, wallet), undefined, 'PUT'),
    removeTester: (gameId: string, wallet: string) =>
      call<undefined>(tester(gameId, wallet), undefined, 'DELETE'),

    stats: (gameId: string) => call<GameStats>(`${game(gameId)}/stats`),
  };
}

export type PortalApi = ReturnType<typeof portalApi>;
