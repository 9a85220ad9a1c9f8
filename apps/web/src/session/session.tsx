import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type {
  PlayerProfile,
  SessionToken,
  WalletChallenge,
  WalletChallengeRequest,
  WalletSignInRequest,
} from '@coinop/protocol';
import { ApiError, requestJson } from '../api.js';
import {
  arcadeWallet,
  arcadeWalletKey,
  connectBrowserWallet,
  reconnectBrowserWallet,
  type BrowserWallet,
  type WalletKind,
  type WalletSigner,
} from './wallets.js';
import { currentBrowserWallets } from './wallet-discovery.js';

/** What the player chose to sign in with. */
export type WalletChoice = { kind: 'arcade' } | { kind: 'browser'; wallet: BrowserWallet };

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | {
      status: 'signed-in';
      kind: WalletKind;
      /** Null when the browser wallet is gone after a reload: reads work, signing does not. */
      wallet: WalletSigner | null;
      token: string;
      /** As `GET /api/player/me` tells it. */
      player: PlayerProfile;
    };

export interface Session {
  state: SessionState;
  /** Signs in with the wallet (sign-in service, EIP-4361); throws WalletError or ApiError. */
  connect(choice: WalletChoice): Promise<void>;
  signOut(): void;
  /** Reads the profile and balance again. */
  refresh(): Promise<void>;
  /**
   * Counts the times HST moved for the player in this page (a faucet grant, a deposit credited,
   * a withdrawal asked for or settled, a play, score or payment): every view that shows money
   * (a balance, the wallet's holdings, what was spent, paid or is pending) reads it again when
   * this changes.
   */
  moneyMoves: number;
  /** Says HST moved: reads the profile again and bumps `moneyMoves`. */
  moved(): Promise<void>;
  /**
   * A JSON request to `/api{path}` with the player's token: POST with a body, GET without, or
   * `method` (PATCH, DELETE, ...), with extra `headers` (`Idempotency-Key`) if given.
   */
  call<T>(
    path: string,
    body?: unknown,
    method?: string,
    headers?: Record<string, string>,
  ): Promise<T>;
  /** A JSON POST to the sign-in service, `/auth{path}`, with the player's token. */
  callAuth<T>(path: string, body: unknown): Promise<T>;
}

interface StoredSession {
  kind: WalletKind;
  address: string;
  /** The browser wallet's EIP-6963 rdns, to find the same extension after a reload. */
  walletRdns?: string;
  token: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

const SESSION_STORAGE = 'coinop.session';
/** Sign in again this long before the token expires rather than fail a request. */
const EXPIRY_MARGIN_MS = 60_000;

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a <SessionProvider> above it');
  return session;
}

function readStored(): StoredSession | null {
  try {
    const value = JSON.parse(localStorage.getItem(SESSION_STORAGE) ?? 'null') as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const s = value as Partial<StoredSession>;
    if (
      (s.kind === 'browser' || s.kind === 'arcade') &&
      typeof s.address === 'string' &&
      (s.walletRdns === undefined || typeof s.walletRdns === 'string') &&
      typeof s.token === 'string' &&
      typeof s.expiresAt === 'number'
    ) {
      return s as StoredSession;
    }
  } catch {
    // A damaged entry is as good as none.
  }
  return null;
}

/** The browser wallets, the one with `rdns` (signed in with before a reload) first. */
function signedInFirst(rdns: string | undefined): BrowserWallet[] {
  const wallets = currentBrowserWallets();
  return [...wallets.filter((w) => w.rdns === rdns), ...wallets.filter((w) => w.rdns !== rdns)];
}

/** A new session token for the same sign-in, from the one about to expire. */
async function renew(stored: StoredSession): Promise<StoredSession> {
  const renewed = await requestJson<SessionToken>('/auth/session/renew', {
    body: {},
    token: stored.token,
  });
  return {
    ...stored,
    token: renewed.access_token,
    expiresAt: Date.now() + renewed.expires_in * 1000,
  };
}

/** Challenge, sign, verify: a web session token for the wallet. */
async function signIn(wallet: WalletSigner): Promise<StoredSession> {
  const { message } = await requestJson<WalletChallenge>('/auth/wallet/challenge', {
    body: { address: wallet.address } satisfies WalletChallengeRequest,
  });
  const signature = await wallet.signMessage(message);
  const verified = await requestJson<SessionToken>('/auth/wallet/verify', {
    body: { message, signature } satisfies WalletSignInRequest,
  });
  return {
    kind: wallet.kind,
    address: wallet.address,
    token: verified.access_token,
    expiresAt: Date.now() + verified.expires_in * 1000,
  };
}

/**
 * The player's session: which wallet, the web session token, the profile and balance. Kept in
 * localStorage so it survives a reload. The token lives minutes and is renewed before it runs
 * out, for as long as the sign-in allows (a week); after that the arcade wallet signs in again
 * by itself, a browser wallet asks the person.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const stateRef = useRef(state);
  stateRef.current = state;
  /** The stored session behind a signed-in state: its expiry drives renewal. */
  const storedRef = useRef<StoredSession | null>(null);
  const renewing = useRef<Promise<StoredSession | null> | null>(null);

  const signedOut = useCallback(() => {
    localStorage.removeItem(SESSION_STORAGE);
    storedRef.current = null;
    setState({ status: 'signed-out' });
  }, []);

  const keep = useCallback((stored: StoredSession) => {
    localStorage.setItem(SESSION_STORAGE, JSON.stringify(stored));
    storedRef.current = stored;
  }, []);

  const enter = useCallback(
    async (stored: StoredSession, wallet: WalletSigner | null) => {
      const player = await requestJson<PlayerProfile>('/api/player/me', { token: stored.token });
      keep(stored);
      setState({ status: 'signed-in', kind: stored.kind, wallet, token: stored.token, player });
    },
    [keep],
  );

  /**
   * The session token, renewed first when it is about to expire (one renewal at a time); the
   * arcade wallet signs in again when it cannot be renewed. Null when the session is over.
   */
  const freshSession = useCallback(async (): Promise<StoredSession | null> => {
    const stored = storedRef.current;
    if (stored === null) return null;
    if (stored.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return stored;
    renewing.current ??= (async () => {
      try {
        return await renew(stored);
      } catch {
        return stored.kind === 'arcade' && arcadeWalletKey() !== null
          ? signIn(arcadeWallet()).catch(() => null)
          : null;
      }
    })().finally(() => {
      renewing.current = null;
    });
    const fresh = await renewing.current;
    if (fresh === null) {
      signedOut();
      return null;
    }
    keep(fresh);
    setState((s) => (s.status === 'signed-in' ? { ...s, token: fresh.token } : s));
    return fresh;
  }, [keep, signedOut]);

  // Renew shortly before the token expires, so a page left open stays signed in.
  useEffect(() => {
    if (state.status !== 'signed-in') return;
    const stored = storedRef.current;
    if (stored === null) return;
    const wait = Math.max(stored.expiresAt - EXPIRY_MARGIN_MS - Date.now(), 0);
    const timer = setTimeout(() => void freshSession(), wait + 1000);
    return () => clearTimeout(timer);
  }, [state, freshSession]);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const stored = readStored();
      if (!stored) return setState({ status: 'signed-out' });
      try {
        const arcade =
          stored.kind === 'arcade' && arcadeWalletKey() !== null ? arcadeWallet() : null;
        const wallet =
          stored.kind === 'arcade'
            ? arcade
            : await reconnectBrowserWallet(stored.address, signedInFirst(stored.walletRdns));
        if (wallet !== null && wallet.address !== stored.address) throw new Error('wallet changed');
        const fresh =
          stored.expiresAt - EXPIRY_MARGIN_MS > Date.now()
            ? stored
            : await renew(stored).catch(() => (arcade !== null ? signIn(arcade) : null));
        if (cancelled) return;
        if (fresh === null) return signedOut();
        await enter(fresh, wallet);
      } catch {
        if (!cancelled) signedOut();
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [enter, signedOut]);

  const connect = useCallback(
    async (choice: WalletChoice) => {
      const wallet =
        choice.kind === 'arcade' ? arcadeWallet() : await connectBrowserWallet(choice.wallet);
      const stored = await signIn(wallet);
      const rdns = choice.kind === 'browser' ? choice.wallet.rdns : null;
      await enter(rdns === null ? stored : { ...stored, walletRdns: rdns }, wallet);
    },
    [enter],
  );

  const refresh = useCallback(async () => {
    if (stateRef.current.status !== 'signed-in') return;
    const session = await freshSession();
    if (session === null) return;
    try {
      const player = await requestJson<PlayerProfile>('/api/player/me', { token: session.token });
      setState((s) =>
        s.status === 'signed-in' && s.token === session.token ? { ...s, player } : s,
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) signedOut();
    }
  }, [freshSession, signedOut]);

  const [moneyMoves, setMoneyMoves] = useState(0);
  const moved = useCallback(async () => {
    setMoneyMoves((n) => n + 1);
    await refresh();
  }, [refresh]);

  // Back in this tab: the balance may have moved meanwhile (another tab, a game in a terminal).
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [refresh]);

  const call = useCallback(
    async <T,>(
      path: string,
      body?: unknown,
      method?: string,
      headers?: Record<string, string>,
    ): Promise<T> => {
      const session = stateRef.current.status === 'signed-in' ? await freshSession() : null;
      if (session === null) {
        throw new ApiError(401, 'missing_bearer_token', 'Connect a wallet first');
      }
      try {
        return await requestJson<T>(`/api${path}`, {
          body,
          token: session.token,
          method,
          headers,
        });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'invalid_player_token') signedOut();
        throw error;
      }
    },
    [freshSession, signedOut],
  );

  const callAuth = useCallback(
    async <T,>(path: string, body: unknown): Promise<T> => {
      const session = stateRef.current.status === 'signed-in' ? await freshSession() : null;
      if (session === null) {
        throw new ApiError(401, 'missing_bearer_token', 'Connect a wallet first');
      }
      return requestJson<T>(`/auth${path}`, { body, token: session.token });
    },
    [freshSession],
  );

  const session = useMemo<Session>(
    () => ({ state, connect, signOut: signedOut, refresh, moneyMoves, moved, call, callAuth }),
    [state, connect, signedOut, refresh, moneyMoves, moved, call, callAuth],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
