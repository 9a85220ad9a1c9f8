import type {
  ActivityPage,
  Tournament,
  TournamentList,
  TournamentRoundDetail,
  TournamentRoundPage,
} from '@coinop/protocol';
import { requestJson } from '../api.js';
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

export type GameState = 'published' | 'unpublished' | 'suspended';

export interface AdminGame {
  gameId: string;
  name: string;
  state: GameState;
  developerId: string;
  developerWallet: string;
  tiers: number;
  publishedAt: string | null;
  suspendedAt: string | null;
  createdAt: string;
}

export interface QueuedPublishRequest {
  requestId: string;
  gameId: string;
  gameName: string;
  state: 'pending' | 'approved' | 'declined' | 'withdrawn';
  note: string;
  declineReason: string | null;
  requestedAt: string;
  decidedAt: string | null;
  game: {
    tagLine: string;
    description: string;
    category: string;
    url: string;
    coverUrl: string;
    developerId: string;
    developerWallet: string;
    state: GameState;
    tiers: number;
  };
}

export interface AdminPlayer {
  playerId: string;
  wallet: string | null;
  name: string;
  accountId: string;
  balance: number;
  pending: number;
  createdAt: string;
}

export interface AdminDeveloper {
  developerId: string;
  wallet: string;
  accountId: string;
  games: number;
  balance: number;
  pending: number;
  createdAt: string;
}

export interface Audit {
  debitsPosted: number;
  creditsPosted: number;
  debitsPending: number;
  creditsPending: number;
  minted: number;
  vaultHeld: number;
  balanced: boolean;
}

/** Why no HST leaves the vault (docs/operating/chain.md#resuming-after-a-halt). */
export interface ChainHalt {
  id: string;
  cause: 'reorg' | 'chain_mismatch' | 'shortfall';
  detail: string;
  blockNumber: number | null;
  shortfall: string | null;
  haltedAt: string;
  resume: {
    requestedAt: string;
    by: string;
    reason: string;
    fromBlock: number | null;
    acceptedShortfall: string | null;
  } | null;
  resumedAt: string | null;
}

type Totals = { count: number; amount: string };

/** `GET /admin/chain`, the parts the console shows; amounts are exact HST strings. */
export interface ChainStatus {
  enabled: boolean;
  state?: 'starting' | 'running' | 'failing' | 'halted';
  vaultAddress?: string;
  chainId?: number | null;
  checkpointBlock?: number | null;
  headBlock?: number | null;
  lagBlocks?: number | null;
  reorg?: { blockNumber: number | null } | null;
  halt?: ChainHalt | null;
  reconciliation?: {
    at: string;
    blockNumber: number;
    unexplained: string;
    acceptedShortfall: string;
  } | null;
  surplus?: Record<'unsolicited' | 'credited' | 'swept' | 'covered', Totals>;
  lastError?: { message: string; at: string } | null;
  withdrawals?: { waiting: string | null; queued: Totals };
}

/** HST sent to the vault without a deposit, and what the operator did with it. */
export interface ChainSurplus {
  chainId: number;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  from: string;
  amount: string;
  status: 'unsolicited' | 'credited' | 'swept' | 'covered';
  creditedAccountId: string | null;
  withdrawalId: string | null;
  note: string | null;
  seenAt: string;
  settledAt: string | null;
}

export interface ResumeRequest {
  by: string;
  reason: string;
  fromBlock?: number;
  acceptShortfall?: string;
}

export interface Page<T> {
  items: T[];
  next: string | null;
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
  return {
    publishQueue: async (options: { all: boolean; after?: string | null }) => {
      const page = await call<{ requests: QueuedPublishRequest[]; next: string | null }>(
        `/publish-requests${query({ all: options.all ? 'true' : null, after: options.after, limit: '20' })}`,
      );
      return { items: page.requests, next: page.next };
    },
    approve: (requestId: string) =>
      call<QueuedPublishRequest>(`/publish-requests/${id(requestId)}/approve`, {}),
    decline: (requestId: string, reason: string) =>
      call<QueuedPublishRequest>(`/publish-requests/${id(requestId)}/decline`, { reason }),

    games: async (before?: string | null, limit = 20) => {
      const page = await call<{ games: AdminGame[]; next: string | null }>(
        `/games${query({ before, limit: String(limit) })}`,
      );
      return { items: page.games, next: page.next };
    },
    gameAction: (gameId: string, action: 'publish' | 'unpublish' | 'suspend' | 'resume') =>
      call<unknown>(`/games/${id(gameId)}/${action}`, {}),

    players: async (search: string, before?: string | null) => {
      const page = await call<{ players: AdminPlayer[]; next: string | null }>(
        `/players${query({ search, before, limit: '20' })}`,
      );
      return { items: page.players, next: page.next };
    },
    player: (player: string) => call<AdminPlayer>(`/players/${id(player)}`),
    /** A page of a player's activity; `pageQuery` is `limit=…` and, later, `&cursor=…`. */
    playerActivity: (player: string, pageQuery: string) =>
      call<ActivityPage>(`/players/${id(player)}/activity?${pageQuery}`),
    developers: async (search: string, before?: string | null) => {
      const page = await call<{ developers: AdminDeveloper[]; next: string | null }>(
        `/developers${query({ search, before, limit: '20' })}`,
      );
      return { items: page.developers, next: page.next };
    },

    audit: () => call<Audit>('/hst/audit'),
    mint: (accountId: string, amount: string) =>
      call<{ transferId: string; balance: number }>('/hst/mints', { accountId, amount }),
    balance: (accountId: string) =>
      call<{ accountId: string; balance: number; pending: number }>(
        `/hst/balances/${id(accountId)}`,
      ),
    rotateKeys: () => call<{ kid: string; retiredKid: string | null }>('/keys/rotate', {}),

    chainStatus: () => call<ChainStatus>('/chain'),
    chainHalts: async () => (await call<{ halts: ChainHalt[] }>('/chain/halts?limit=20')).halts,
    chainSurplus: async () =>
      (await call<{ surplus: ChainSurplus[] }>('/chain/surplus?limit=100')).surplus,
    resumeChain: (body: ResumeRequest) =>
      call<{ state: 'resumed' | 'resuming'; halt: ChainHalt }>('/chain/resume', body),
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
  };
}

export type AdminApi = ReturnType<typeof adminApi>;
