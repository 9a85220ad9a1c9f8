import type { ArcadeDailyStats } from '@coinop/protocol';
import type {
  AccountBalance,
  ActivityPage,
  AdminDeveloperList,
  AdminGameList,
  AdminGameSettings,
  AdminPlayer,
  AdminPlayerList,
  ProfileReset,
  ChainHaltList,
  ChainResumed,
  ChainResumeRequest,
  ChainStatus,
  ChainSurplus,
  ChainSurplusList,
  HstAudit,
  HstMinted,
  KeysRevoked,
  KeysRotated,
  LedgerTransferPage,
  PublishQueue,
  QueuedPublishRequest,
  Tournament,
  TournamentList,
  TournamentRoundDetail,
  TournamentRoundPage,
} from '@coinop/protocol';
import { requestJson } from '../api.js';
import { reviewClient } from '../reviews/review-client.js';
import type { TournamentRequest } from '../portal/portal-api.js';

/**
 * The operator console's client of the admin API (`/api/admin/*` through this origin), the same
 * routes `coinop admin` calls. The admin token the operator pasted is kept in this tab's
 * sessionStorage only (docs/operating/security.md): closing the tab or signing out forgets it.
 */

const TOKEN_STORAGE = 'coinop.admin-token';

export function storedAdminToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_STORAGE);
  } catch {
    return null;
  }
}

export function storeAdminToken(token: string | null): void {
  if (token === null) sessionStorage.removeItem(TOKEN_STORAGE);
  else sessionStorage.setItem(TOKEN_STORAGE, token);
}

const query = (params: Record<string, string | null | undefined>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') search.set(name, value);
  }
  return search.size > 0 ? `?${search}` : '';
};
const id = encodeURIComponent;

/** A typed client bound to one admin token. */
export function adminApi(token: string) {
  const call = <T>(path: string, body?: unknown) =>
    requestJson<T>(`/api/admin${path}`, {
      token,
      ...(body === undefined ? {} : { body }),
    });
  const reviews = reviewClient('/api/admin/reviews', () => token);
  return {
    /** The review queue (docs/reference/review-queue.md), every game's. */
    reviews: reviews.list,
    review: reviews.detail,
    reviewReplay: reviews.replay,
    verifyReview: reviews.verify,
    resolveReview: reviews.resolve,

    publishQueue: async (options: { all: boolean; after?: string | null }) => {
      const page = await call<PublishQueue>(
        `/publish-requests${query({ all: options.all ? 'true' : null, after: options.after, limit: '20' })}`,
      );
      return { items: page.requests, next: page.next };
    },
    approve: (requestId: string) =>
      call<QueuedPublishRequest>(`/publish-requests/${id(requestId)}/approve`, {}),
    decline: (requestId: string, reason: string) =>
      call<QueuedPublishRequest>(`/publish-requests/${id(requestId)}/decline`, { reason }),

    games: async (before?: string | null, limit = 20) => {
      const page = await call<AdminGameList>(`/games${query({ before, limit: String(limit) })}`);
      return { items: page.games, next: page.next };
    },
    gameAction: (gameId: string, action: 'publish' | 'unpublish' | 'suspend' | 'resume') =>
      call<unknown>(`/games/${id(gameId)}/${action}`, {}),
    /** A game's score rules and payout holds, its own and each tier's (read-only). */
    gameSettings: (gameId: string) => call<AdminGameSettings>(`/games/${id(gameId)}/settings`),

    players: async (search: string, before?: string | null) => {
      const page = await call<AdminPlayerList>(`/players${query({ search, before, limit: '20' })}`);
      return { items: page.players, next: page.next };
    },
    player: (player: string) => call<AdminPlayer>(`/players/${id(player)}`),
    /** Resets an abusive name and avatar to the defaults, keeping the reason. */
    resetProfile: (player: string, reason: string) =>
      call<ProfileReset>(`/players/${id(player)}/reset-profile`, { reason }),
    /** A page of a player's activity; `pageQuery` is `limit=…` and, later, `&cursor=…`. */
    playerActivity: (player: string, pageQuery: string) =>
      call<ActivityPage>(`/players/${id(player)}/activity?${pageQuery}`),
    developers: async (search: string, before?: string | null) => {
      const page = await call<AdminDeveloperList>(
        `/developers${query({ search, before, limit: '20' })}`,
      );
      return { items: page.developers, next: page.next };
    },

    audit: () => call<HstAudit>('/hst/audit'),
    /** Plays, volume, active players and payouts per UTC day over the last `days`. */
    dailyStats: (days: number) => call<ArcadeDailyStats>(`/stats/daily?days=${days}`),
    mint: (accountId: string, amount: string) =>
      call<HstMinted>('/hst/mints', { accountId, amount }),
    balance: (accountId: string) => call<AccountBalance>(`/hst/balances/${id(accountId)}`),
    rotateKeys: () => call<KeysRotated>('/keys/rotate', {}),
    revokeKeys: () => call<KeysRevoked>('/keys/revoke', {}),

    chainStatus: () => call<ChainStatus>('/chain'),
    chainHalts: async () => (await call<ChainHaltList>('/chain/halts?limit=20')).halts,
    chainSurplus: async () => (await call<ChainSurplusList>('/chain/surplus?limit=100')).surplus,
    resumeChain: (body: ChainResumeRequest) => call<ChainResumed>('/chain/resume', body),
    /** `surplus` is `<txHash>:<logIndex>`. */
    creditSurplus: (surplus: string, accountId: string) =>
      call<ChainSurplus>(`/chain/surplus/${id(surplus)}/credit`, { accountId }),
    sweepSurplus: (surplus: string, to: string) =>
      call<ChainSurplus>(`/chain/surplus/${id(surplus)}/sweep`, { to }),
    coverShortfall: (surplus: string, note: string) =>
      call<ChainSurplus>(`/chain/surplus/${id(surplus)}/cover`, { note }),

    /** Every tournament of every game, those with a round to come first (at most 200). */
    tournaments: async () => (await call<TournamentList>('/tournaments')).tournaments,
    /** A tournament of `gameId`, its guarantee funded by the arcade's account. */
    createTournament: (gameId: string, body: TournamentRequest) =>
      call<Tournament>('/tournaments', { gameId, ...body }),
    stopTournament: (tournamentId: string) =>
      call<Tournament>(`/tournaments/${id(tournamentId)}/stop`, {}),
    /** A tournament's rounds, newest first, of any game (the catalog's answer, unpublished too). */
    tournamentRounds: (tournamentId: string, cursor: string | null, limit: number) =>
      call<TournamentRoundPage>(
        `/tournaments/${id(tournamentId)}/rounds${query({ cursor, limit: String(limit) })}`,
      ),
    /** One round of any game's tournament with its paid places. */
    tournamentRound: (tournamentId: string, roundId: string) =>
      call<TournamentRoundDetail>(`/tournaments/${id(tournamentId)}/rounds/${id(roundId)}`),

    /** A page of ledger transfers, newest first, with the API's filters (issue 31). */
    ledgerTransfers: (filters: Record<string, string | null>, cursor: string | null) =>
      call<LedgerTransferPage>(`/ledger/transfers${query({ ...filters, cursor, limit: '50' })}`),
  };
}

export type AdminApi = ReturnType<typeof adminApi>;
