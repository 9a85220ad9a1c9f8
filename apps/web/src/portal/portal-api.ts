import type {
  ApiKey,
  ApiKeyList,
  ClientSecret,
  DeveloperBalance,
  DeveloperDailyStats,
  DeveloperGame,
  DeveloperGameList,
  DeveloperGameRequest,
  DeveloperGameUpdateRequest,
  DeveloperTier,
  GameClient,
  GameScreenshot,
  GameScreenshotList,
  GameStats,
  NewApiKey,
  PublishRequest,
  PublishRequestList,
  RetiredTier,
  Tester,
  TesterList,
  TierRequest,
  TierUpdateRequest,
  Tournament,
  TournamentList,
  TournamentPayoutTable,
} from '@coinop/protocol';
import type { Session } from '../session/session.js';

/**
 * The developer portal's routes (`/api/developer/...`), called with the developer's wallet. The
 * bodies and answers are the wire types of `@coinop/protocol`.
 */

type Call = Session['call'];

const game = (gameId: string) => `/developer/games/${encodeURIComponent(gameId)}`;
const tier = (gameId: string, tierId: string) =>
  `${game(gameId)}/leaderboards/${encodeURIComponent(tierId)}`;
const client = (gameId: string, clientId: string) =>
  `${game(gameId)}/clients/${encodeURIComponent(clientId)}`;
const tester = (gameId: string, wallet: string) =>
  `${game(gameId)}/testers/${encodeURIComponent(wallet)}`;

/** `POST /developer/games/{gameId}/tournaments` (docs/reference/tournaments.md). */
export interface TournamentRequest {
  name: string;
  entryFee: string;
  startsAt: string;
  durationSeconds: number;
  recurrence?: string;
  maxEntrants?: number;
  maxAttempts?: number;
  payoutTable: TournamentPayoutTable;
  guaranteedPool: string;
}

/** A version of the game's replay verifier (docs/reference/verifier.md). */
export interface VerifierVersion {
  gameId: string;
  version: number;
  sha256: string;
  sizeBytes: number;
  uploadedAt: string;
  removedAt: string | null;
}

/** What `POST .../verifier/check` answers: what a score with that replay would get. */
export interface VerifierCheck {
  ok: boolean;
  reason: 'mismatch' | 'threw' | 'time_limit' | 'memory_limit' | 'no_verifier' | null;
  detail: string | null;
  computed: number | null;
  version: number | null;
  seed: string;
  durationMs: number;
}

/** A typed client over the session's `call`, so every request carries the wallet's token. */
export function portalApi(call: Call) {
  return {
    listKeys: async () => (await call<ApiKeyList>('/developer/apikey')).keys,
    createKey: () => call<NewApiKey>('/developer/apikey', {}),
    revokeKey: (prefix: string) =>
      call<ApiKey>(`/developer/apikey/${encodeURIComponent(prefix)}`, undefined, 'DELETE'),

    listGames: async () => (await call<DeveloperGameList>('/developer/games')).games,
    getGame: (gameId: string) => call<DeveloperGame>(game(gameId)),
    createGame: (fields: DeveloperGameRequest) => call<DeveloperGame>('/developer/games', fields),
    updateGame: (gameId: string, fields: DeveloperGameUpdateRequest) =>
      call<DeveloperGame>(game(gameId), fields, 'PATCH'),

    addTier: (gameId: string, body: TierRequest) =>
      call<DeveloperTier>(`${game(gameId)}/leaderboards`, body),
    updateTier: (gameId: string, tierId: string, body: TierUpdateRequest) =>
      call<DeveloperTier>(tier(gameId, tierId), body, 'PATCH'),
    retireTier: (gameId: string, tierId: string) =>
      call<RetiredTier>(tier(gameId, tierId), undefined, 'DELETE'),

    createClient: (gameId: string) => call<ClientSecret>(`${game(gameId)}/clients`, {}),
    rotateClient: (gameId: string, clientId: string) =>
      call<ClientSecret>(`${client(gameId, clientId)}/rotate`, {}),
    revokeClient: (gameId: string, clientId: string) =>
      call<GameClient>(client(gameId, clientId), undefined, 'DELETE'),

    listTesters: async (gameId: string) =>
      (await call<TesterList>(`${game(gameId)}/testers`)).testers,
    addTester: (gameId: string, wallet: string) =>
      call<Tester>(tester(gameId, wallet), undefined, 'PUT'),
    removeTester: (gameId: string, wallet: string) =>
      call<undefined>(tester(gameId, wallet), undefined, 'DELETE'),

    stats: (gameId: string) => call<GameStats>(`${game(gameId)}/stats`),
    /** Plays and HST earned per UTC day over the last `days`: one game's, or every game's. */
    dailyStats: (days: number, gameId?: string) =>
      call<DeveloperDailyStats>(
        `/developer/stats/daily?days=${days}` +
          (gameId === undefined ? '' : `&gameId=${encodeURIComponent(gameId)}`),
      ),

    listPublishRequests: async (gameId: string) =>
      (await call<PublishRequestList>(`${game(gameId)}/publish-requests`)).requests,
    requestPublishing: (gameId: string, note: string) =>
      call<PublishRequest>(`${game(gameId)}/publish-requests`, note === '' ? {} : { note }),
    withdrawPublishRequest: (gameId: string, requestId: string) =>
      call<PublishRequest>(
        `${game(gameId)}/publish-requests/${encodeURIComponent(requestId)}/withdraw`,
        {},
      ),

    listTournaments: async (gameId: string) =>
      (await call<TournamentList>(`${game(gameId)}/tournaments`)).tournaments,
    createTournament: (gameId: string, body: TournamentRequest) =>
      call<Tournament>(`${game(gameId)}/tournaments`, body),
    stopTournament: (gameId: string, tournamentId: string) =>
      call<Tournament>(`${game(gameId)}/tournaments/${encodeURIComponent(tournamentId)}/stop`, {}),

    getVerifier: (gameId: string) =>
      call<VerifierVersion & { source: string }>(`${game(gameId)}/verifier`),
    uploadVerifier: (gameId: string, source: string) =>
      call<VerifierVersion>(`${game(gameId)}/verifier`, source, 'PUT', {
        'content-type': 'text/javascript',
      }),
    checkVerifier: (gameId: string, body: { replay: string; score: number; seed?: string }) =>
      call<VerifierCheck>(`${game(gameId)}/verifier/check`, body),

    listScreenshots: async (gameId: string) =>
      (await call<GameScreenshotList>(`${game(gameId)}/screenshots`)).screenshots,
    addScreenshot: (gameId: string, body: { image: string; alt: string }) =>
      call<GameScreenshot>(`${game(gameId)}/screenshots`, body),
    deleteScreenshot: (gameId: string, screenshotId: string) =>
      call<undefined>(
        `${game(gameId)}/screenshots/${encodeURIComponent(screenshotId)}`,
        undefined,
        'DELETE',
      ),

    balance: () => call<DeveloperBalance>('/developer/balance'),
  };
}

export type PortalApi = ReturnType<typeof portalApi>;
