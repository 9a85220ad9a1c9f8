import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { PlayerProfile } from '@coinop/protocol';
import { ApiError, requestJson } from '../api.js';
import { connectBrowserWallet } from './wallets.js';
import {
  signIn,
  useStoredSession,
  type SessionState,
  type WalletChoice,
} from './stored-session.js';

export type { SessionState, WalletChoice } from './stored-session.js';

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
  /** The web session token, renewed if it is about to expire; null when signed out. */
  freshToken(): Promise<string | null>;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a <SessionProvider> above it');
  return session;
}

/**
 * The player's session: which wallet, the web session token, the profile and balance. Kept in
 * localStorage so it survives a reload. The token lives minutes and is renewed before it runs
 * out, for as long as the sign-in allows (a week); after that the arcade wallet signs in again
 * by itself, a browser wallet asks the person.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const { state, setState, stateRef, signedOut, enter, freshSession } = useStoredSession();

  const connect = useCallback(
    async (choice: WalletChoice) => {
      const wallet =
        choice.kind === 'arcade'
          ? (await import('./arcade-wallet.js')).arcadeWallet()
          : await connectBrowserWallet(choice.wallet);
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

  const freshToken = useCallback(async () => {
    if (stateRef.current.status !== 'signed-in') return null;
    return (await freshSession())?.token ?? null;
  }, [freshSession]);

  const session = useMemo<Session>(
    () => ({
      state,
      connect,
      signOut: signedOut,
      refresh,
      moneyMoves,
      moved,
      call,
      callAuth,
      freshToken,
    }),
    [state, connect, signedOut, refresh, moneyMoves, moved, call, callAuth, freshToken],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
