import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  PlayerProfile,
  SessionToken,
  WalletChallenge,
  WalletChallengeRequest,
  WalletSignInRequest,
} from '@coinop/protocol';
import { requestJson } from '../api.js';
import {
  arcadeWalletKey,
  reconnectBrowserWallet,
  type BrowserWallet,
  type WalletKind,
  type WalletSigner,
} from './wallets.js';
import { currentBrowserWallets } from './wallet-discovery.js';

/** The arcade wallet's signer: its module (secp256k1) is loaded only when it is needed. */
async function arcadeWallet(): Promise<WalletSigner> {
  return (await import('./arcade-wallet.js')).arcadeWallet();
}

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

export interface StoredSession {
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
export async function signIn(wallet: WalletSigner): Promise<StoredSession> {
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
 * The session's state and its stored token: kept in localStorage, renewed shortly before it
 * expires (one renewal at a time; the arcade wallet signs in again when it cannot be renewed),
 * and restored on load from what was stored.
 */
export function useStoredSession() {
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
          ? arcadeWallet()
              .then(signIn)
              .catch(() => null)
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
          stored.kind === 'arcade' && arcadeWalletKey() !== null ? await arcadeWallet() : null;
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

  return { state, setState, stateRef, signedOut, enter, freshSession };
}
