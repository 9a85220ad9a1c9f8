import type {
  Leaderboard,
  PlayStatus,
  ScoreDisplay,
  ScoreRules,
  TierScoreRules,
} from './game-server.js';

/**
 * The developer portal's API (`/developer/...`, with a player token of the developer's wallet):
 * API keys, games, tiers, game server clients, testers and stats.
 */

/**
 * A live tier of a developer's game: a leaderboard without its leaders, with its score rules'
 * overrides.
 *
 * @example
 * ```ts
 * import type { DeveloperTier } from '@coinop/protocol';
 * const tier: DeveloperTier = { id: 't-1', name: 'Practice', cost: 1, currency: 'HST',
 *   formattedCostString: '1 HST', leadersMax: 10,
 *   scoreRules: { minScore: null, maxScore: null, minPlayMs: null, replay: null } };
 * ```
 */
export type DeveloperTier = Omit<Leaderboard, 'leaders' | 'scoreRules' | 'payoutHoldSeconds'> & {
  readonly scoreRules: TierScoreRules;
  /**
   * Seconds this tier's payouts stay pending before they are spendable, so a false score can
   * be voided first; null: the game's hold.
   */
  readonly payoutHoldSeconds?: number | null;
};

/**
 * A game server client; its secret is never shown again.
 *
 * @example
 * ```ts
 * import type { GameClient } from '@coinop/protocol';
 * const isLive = (client: GameClient) => client.revokedAt === null;
 * ```
 */
export interface GameClient {
  /** The game server's client_id. */
  readonly clientId: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/**
 * A game of the signed-in developer, as the portal shows it.
 *
 * @example
 * ```ts
 * import type { DeveloperGame } from '@coinop/protocol';
 * const liveClients = (game: DeveloperGame) => game.clients.filter((c) => c.revokedAt === null);
 * ```
 */
export interface DeveloperGame {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly category: string;
  readonly tagLine: string;
  readonly developerInfo: string;
  /** Where the game is hosted; empty until set. */
  readonly url: string;
  /** The cover URL given, or where the arcade serves an uploaded cover. */
  readonly coverUrl: string;
  readonly scoreDisplay: ScoreDisplay;
  /** Shown after each score, e.g. "ms"; empty for none. */
  readonly scoreUnit: string;
  readonly prodDomain: string | null;
  /** Whether an operator listed it in the catalog. */
  readonly published: boolean;
  /** When the game was registered. */
  readonly createdAt: string;
  /** Seconds the game's payouts stay pending; null: the arcade operator's default. */
  readonly payoutHoldSeconds?: number | null;
  /** The arcade operator's default payout hold, in force where the game and a tier set none. */
  readonly operatorPayoutHoldSeconds?: number;
  /** The frame's shape, "width:height"; null: the arcade's default frame (issue 31). */
  readonly aspectRatio?: string | null;
  /** Live tiers, in display order. */
  readonly leaderboards: readonly DeveloperTier[];
  /** Clients, live and revoked, oldest first. */
  readonly clients: readonly GameClient[];
  /** The rules the game's scores must meet; each tier may override them. */
  readonly scoreRules: ScoreRules;
  /** The version of the game's current replay verifier; null when it has none. */
  readonly verifierVersion?: number | null;
}

/**
 * The developer's games, newest first (`GET /developer/games`).
 *
 * @example
 * ```ts
 * import type { DeveloperGameList } from '@coinop/protocol';
 * const published = (list: DeveloperGameList) => list.games.filter((g) => g.published);
 * ```
 */
export interface DeveloperGameList {
  readonly games: readonly DeveloperGame[];
}

/**
 * The body that registers a game (`POST /developer/games`). A cover is either `coverUrl` or
 * `coverImage` (a `data:image/png;base64,…` or JPEG URL), one of them.
 *
 * @example
 * ```ts
 * import type { DeveloperGameRequest } from '@coinop/protocol';
 * const body: DeveloperGameRequest = { name: 'Reaction',
 *   coverUrl: 'https://game.example.com/cover.png' };
 * ```
 */
export interface DeveloperGameRequest {
  /** 1 to 100 characters; fixed once registered. */
  name: string;
  /** Default empty. */
  description?: string;
  /** Default NORMAL; fixed once registered. */
  scoreDisplay?: ScoreDisplay;
  coverUrl?: string;
  coverImage?: string;
  prodDomain?: string;
  url?: string;
  category?: string;
  tagLine?: string;
  developerInfo?: string;
  /** Shown after each score, e.g. "ms": at most 12 characters of plain text; empty for none. */
  scoreUnit?: string;
  /** The rules its scores must meet: the fields given are set (null clears one), others kept. */
  scoreRules?: Partial<Mutable<ScoreRules>>;
  /** Seconds the game's payouts are held, 0 to 2592000 (30 days); null or absent: the operator's. */
  payoutHoldSeconds?: number | null;
}

/** A shape with its fields writable: what a request body is built as. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The body that changes a game (`PATCH /developer/games/{gameId}`): any mutable field, at least
 * one. A cover URL replaces an uploaded cover and an upload replaces a cover URL.
 *
 * @example
 * ```ts
 * import type { DeveloperGameUpdateRequest } from '@coinop/protocol';
 * const body: DeveloperGameUpdateRequest = { tagLine: 'Faster than you think' };
 * ```
 */
export type DeveloperGameUpdateRequest = Partial<
  Omit<DeveloperGameRequest, 'name' | 'scoreDisplay'>
> & {
  /** Seconds the game's payouts are held, 0 to 2592000 (30 days); null: the operator's default. */
  payoutHoldSeconds?: number | null;
  /** The frame's shape, "width:height" such as "16:9" or "9:16"; null: the arcade's default. */
  aspectRatio?: string | null;
};

/**
 * The body that adds a tier (`POST /developer/games/{gameId}/leaderboards`).
 *
 * @example
 * ```ts
 * import type { TierRequest } from '@coinop/protocol';
 * const body: TierRequest = { name: 'High stakes', cost: 10 };
 * ```
 */
export interface TierRequest {
  name: string;
  /** Whole HST. */
  cost: number;
  /** Leaders kept, 1 to 100; the arcade's default when absent. */
  leadersMax?: number;
  /** The tier's overrides of its game's score rules: the fields given are set, others kept. */
  scoreRules?: Partial<Mutable<TierScoreRules>>;
  /** Seconds this tier's payouts are held, 0 to 2592000 (30 days); null or absent: the game's. */
  payoutHoldSeconds?: number | null;
}

/**
 * The body that renames a tier or changes its cost, or both; a new cost applies to plays opened
 * afterwards.
 *
 * @example
 * ```ts
 * import type { TierUpdateRequest } from '@coinop/protocol';
 * const body: TierUpdateRequest = { cost: 2 };
 * ```
 */
export type TierUpdateRequest = Partial<Pick<TierRequest, 'name' | 'cost' | 'scoreRules'>> & {
  /** Seconds this tier's payouts are held, 0 to 2592000 (30 days); null: the game's. */
  payoutHoldSeconds?: number | null;
};

/**
 * A retired tier (`DELETE /developer/games/{gameId}/leaderboards/{leaderboardId}`).
 *
 * @example
 * ```ts
 * import type { RetiredTier } from '@coinop/protocol';
 * const retired: RetiredTier = { id: 't-1', retired: true };
 * ```
 */
export interface RetiredTier {
  readonly id: string;
  readonly retired: true;
}

/**
 * A new client id and secret, or a rotated secret: the secret is shown only in this answer.
 *
 * @example
 * ```ts
 * import type { ClientSecret } from '@coinop/protocol';
 * const options = ({ clientId, clientSecret }: ClientSecret) => ({ clientId, clientSecret });
 * ```
 */
export interface ClientSecret {
  readonly clientId: string;
  /** Stored hashed; never shown again. */
  readonly clientSecret: string;
  readonly createdAt: string;
}

/**
 * One of the newest plays of a game, in its stats.
 *
 * @example
 * ```ts
 * import type { RecentPlay } from '@coinop/protocol';
 * const scoreText = (play: RecentPlay) => play.score?.toString() ?? '—';
 * ```
 */
export interface RecentPlay {
  readonly playId: string;
  readonly playerName: string;
  readonly leaderboardName: string;
  /** HST the play locked, as an exact decimal string (`formatHst`). */
  readonly cost: string;
  readonly status: PlayStatus;
  readonly score: number | null;
  /** When the play was opened. */
  readonly createdAt: string;
}

/**
 * Plays, scores and HST earned of a game (`GET /developer/games/{gameId}/stats`).
 *
 * @example
 * ```ts
 * import type { GameStats } from '@coinop/protocol';
 * const scoredShare = (s: GameStats) => (s.plays.total === 0 ? 0 : s.plays.scored / s.plays.total);
 * ```
 */
export interface GameStats {
  readonly plays: {
    readonly total: number;
    readonly open: number;
    readonly scored: number;
    readonly expired: number;
    /** Open plays voided when the operator suspended the game. */
    readonly voided: number;
  };
  /** Scores submitted. */
  readonly scores: number;
  /**
   * HST credited to the developer by this game, its share of settled plays plus purchases, as an
   * exact decimal string (`formatHst`): a game's lifetime earnings may pass what a double holds.
   */
  readonly hstEarned: string;
  /** The 20 newest plays, newest first. */
  readonly recentPlays: readonly RecentPlay[];
}

/**
 * An API key by its public prefix; the key itself is shown only when created.
 *
 * @example
 * ```ts
 * import type { ApiKey } from '@coinop/protocol';
 * const isLive = (key: ApiKey) => key.revokedAt === null;
 * ```
 */
export interface ApiKey {
  readonly prefix: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/**
 * The developer's API keys, live and revoked, oldest first (`GET /developer/apikey`).
 *
 * @example
 * ```ts
 * import type { ApiKeyList } from '@coinop/protocol';
 * const prefixes = (list: ApiKeyList) => list.keys.map((key) => key.prefix);
 * ```
 */
export interface ApiKeyList {
  readonly keys: readonly ApiKey[];
}

/**
 * A new API key (`POST /developer/apikey`), shown only in this answer.
 *
 * @example
 * ```ts
 * import type { NewApiKey } from '@coinop/protocol';
 * const headers = (key: NewApiKey) => ({ 'api-key': key.apiKey });
 * ```
 */
export interface NewApiKey {
  readonly apiKey: string;
  /** The key's public prefix, to list or revoke it by. */
  readonly prefix: string;
  readonly createdAt: string;
}

/**
 * Where an invitation to test stands: `invited` (waiting for the player), `accepted` (a tester:
 * the unpublished game may charge them), `declined` or `left` (the player said no, or stopped).
 */
export type TesterState = 'invited' | 'accepted' | 'declined' | 'left';

/**
 * A wallet the developer invited to test a game. Only once its player accepts
 * (`state: 'accepted'`) may the game's server charge it before the game is published.
 *
 * @example
 * ```ts
 * import type { Tester } from '@coinop/protocol';
 * const tester: Tester = { wallet: '0x52908400098527886e0f7030069857d2e4169ee7',
 *   addedAt: '2026-01-01T00:00:00.000Z', state: 'invited', answeredAt: null };
 * ```
 */
export interface Tester {
  /** Lower-case 0x address. */
  readonly wallet: string;
  /** When the developer invited the wallet. */
  readonly addedAt: string;
  readonly state: TesterState;
  /** When the player last answered; null while the invitation waits. */
  readonly answeredAt: string | null;
}

/**
 * The testers of a game (`GET /developer/games/{gameId}/testers`).
 *
 * @example
 * ```ts
 * import type { TesterList } from '@coinop/protocol';
 * const wallets = (list: TesterList) => list.testers.map((t) => t.wallet);
 * ```
 */
export interface TesterList {
  readonly testers: readonly Tester[];
}

/**
 * A developer's request that the operator list a game in the catalog
 * (`/developer/games/{gameId}/publish-requests`): pending until the operator approves it (the
 * game is published) or declines it with a reason, or the developer withdraws it.
 *
 * @example
 * ```ts
 * import type { PublishRequest } from '@coinop/protocol';
 * const request: PublishRequest = { requestId: '0190a1b2-0000-7000-8000-000000000001',
 *   gameId: '0190a1b2-0000-7000-8000-000000000002', gameName: 'Reaction', state: 'declined',
 *   note: '', declineReason: 'Add a cover image first', requestedAt: '2026-01-01T00:00:00.000Z',
 *   decidedAt: '2026-01-02T00:00:00.000Z' };
 * ```
 */
export interface PublishRequest {
  readonly requestId: string;
  readonly gameId: string;
  readonly gameName: string;
  readonly state: 'pending' | 'approved' | 'declined' | 'withdrawn';
  /** What the developer told the operator; empty when nothing. */
  readonly note: string;
  /** The operator's reason; null unless declined. */
  readonly declineReason: string | null;
  readonly requestedAt: string;
  /** When it was approved, declined or withdrawn; null while pending. */
  readonly decidedAt: string | null;
}

/**
 * A game's publish requests, newest first (`GET /developer/games/{gameId}/publish-requests`):
 * the first is where the game stands.
 *
 * @example
 * ```ts
 * import type { PublishRequestList } from '@coinop/protocol';
 * const isWaiting = (list: PublishRequestList) => list.requests[0]?.state === 'pending';
 * ```
 */
export interface PublishRequestList {
  readonly requests: readonly PublishRequest[];
}
