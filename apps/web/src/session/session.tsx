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
import { ApiError, requestJson } from '../api.js';
import {
  arcadeWallet,
  arcadeWalletKey,
  connectBrowserWallet,
  reconnectBrowserWallet,
  type WalletKind,
  type WalletSigner,
} from './wallets.js';

/** The signed-in player as `GET /api/player/me` tells it. */
export interface PlayerProfile {
  playerId: string;
  wallet: string | null;
  name: string;
  avatar: string;
  /** Spendable HST. */
  balance: number;
  /** HST locked in open plays. */
  pending: number;
  faucet: { amount: number };
}

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | {
      status: 'signed-in';
      kind: WalletKind;
      /** Null when the browser wallet is gone after a reload: reads work, signing does not. */
      wallet: WalletSigner | null;
      token: string;
      player: PlayerProfile;
    };

export interface Session {
  state: SessionState;
  /** Signs in with the wallet (sign-in service, EIP-4361); throws WalletError or ApiError. */
  connect(kind: WalletKind): Promise<void>;
  signOut(): void;
  /** Reads the profile and balance again. */
  refresh(): Promise<void>;
  /**
   * A JSON request to `/api{path}` with the player's token: POST with a body, GET without, or
   * `method` (PATCH, DELETE, ...).
   */
  call<T>(path: string, body?: unknown, method?: string): Promise<T>;
}

interface StoredSession {
  kind: WalletKind;
  address: string;
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

/** Challenge, sign, verify: a player token for the wallet. */
async function signIn(wallet: WalletSigner): Promise<StoredSession> {
  const { message } = await requestJson<{ message: string }>('/auth/wallet/challenge', {
    body: { address: wallet.address },
  });
  const signature = await wallet.signMessage(message);
  const verified = await requestJson<{ access_token: string; expires_in: number }>(
    '/auth/wallet/verify',
    { body: { message, signature } },
  );
  return {
    kind: wallet.kind,
    address: wallet.address,
    token: verified.access_token,
    expiresAt: Date.now() + verified.expires_in * 1000,
  };
}

/**
 * The player's session: which wallet, the player token, the profile and balance. Kept in
 * localStorage so it survives a reload; the arcade wallet signs in again by itself when the
 * token runs out, a browser wallet asks the person.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const stateRef = useRef(state);
  stateRef.current = state;

  const signedOut = useCallback(() => {
    localStorage.removeItem(SESSION_STORAGE);
    setState({ status: 'signed-out' });
  }, []);

  const enter = useCallback(async (stored: StoredSession, wallet: WalletSigner | null) => {
    const player = await requestJson<PlayerProfile>('/api/player/me', { token: stored.token });
    localStorage.setItem(SESSION_STORAGE, JSON.stringify(stored));
    setState({ status: 'signed-in', kind: stored.kind, wallet, token: stored.token, player });
  }, []);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const stored = readStored();
      if (!stored) return setState({ status: 'signed-out' });
      try {
        const arcade =
          stored.kind === 'arcade' && arcadeWalletKey() !== null ? arcadeWallet() : null;
        const wallet =
          stored.kind === 'arcade' ? arcade : await reconnectBrowserWallet(stored.address);
        if (wallet !== null && wallet.address !== stored.address) throw new Error('wallet changed');
        const fresh =
          stored.expiresAt - EXPIRY_MARGIN_MS > Date.now()
            ? stored
            : arcade !== null
              ? await signIn(arcade)
              : null;
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
    async (kind: WalletKind) => {
      const wallet = kind === 'arcade' ? arcadeWallet() : await connectBrowserWallet();
      await enter(await signIn(wallet), wallet);
    },
    [enter],
  );

  const refresh = useCallback(async () => {
    const current = stateRef.current;
    if (current.status !== 'signed-in') return;
    try {
      const player = await requestJson<PlayerProfile>('/api/player/me', { token: current.token });
      setState((s) =>
        s.status === 'signed-in' && s.token === current.token ? { ...s, player } : s,
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) signedOut();
    }
  }, [signedOut]);

  const call = useCallback(
    async <T,>(path: string, body?: unknown, method?: string): Promise<T> => {
      const current = stateRef.current;
      if (current.status !== 'signed-in')
        throw new ApiError(401, 'missing_bearer_token', 'Connect a wallet first');
      try {
        return await requestJson<T>(`/api${path}`, { body, token: current.token, method });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'invalid_player_token') signedOut();
        throw error;
      }
    },
    [signedOut],
  );

  const session = useMemo<Session>(
    () => ({ state, connect, signOut: signedOut, refresh, call }),
    [state, connect, signedOut, refresh, call],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
