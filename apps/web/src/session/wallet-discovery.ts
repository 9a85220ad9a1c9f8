import { useMemo, useSyncExternalStore } from 'react';
import { createStore, type EIP6963ProviderDetail } from 'mipd';

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** A wallet extension the player can sign in with. */
export interface BrowserWallet {
  /** EIP-6963's per-page uuid, or `injected` for the `window.ethereum` fallback. */
  readonly id: string;
  /** As the wallet names itself (EIP-6963), or "Browser wallet". */
  readonly name: string;
  /** A `data:image/…` URI from the wallet, or null. */
  readonly icon: string | null;
  /** Reverse-DNS id (`io.metamask`), stable across reloads; null for the fallback. */
  readonly rdns: string | null;
  readonly provider: Eip1193Provider;
}

/** Longest wallet name shown: the name comes from an extension, so it is bounded here. */
const WALLET_NAME_MAX = 40;

/**
 * EIP-6963 discovery: mipd listens for `eip6963:announceProvider` from the first import and asks
 * every installed extension to announce itself, so wallets are known before the session is
 * restored after a reload. One store per page, as the EIP intends.
 */
const store = typeof window === 'undefined' ? null : createStore();
const NONE: readonly EIP6963ProviderDetail[] = [];

function subscribe(onChange: () => void): () => void {
  return store === null ? () => undefined : store.subscribe(onChange);
}

function announced(): readonly EIP6963ProviderDetail[] {
  return store?.getProviders() ?? NONE;
}

function fromDetail(detail: EIP6963ProviderDetail): BrowserWallet {
  const name = String(detail.info.name ?? '').trim();
  const icon = String(detail.info.icon ?? '');
  return {
    id: String(detail.info.uuid),
    name: name === '' ? 'Browser wallet' : name.slice(0, WALLET_NAME_MAX),
    // EIP-6963 requires a data URI; anything else (a remote URL) would be fetched, so it is dropped.
    icon: /^data:image\//.test(icon) ? icon : null,
    rdns: typeof detail.info.rdns === 'string' ? detail.info.rdns : null,
    provider: detail.provider as Eip1193Provider,
  };
}

function injected(): BrowserWallet | null {
  const candidate = (window as { ethereum?: unknown }).ethereum;
  if (typeof candidate !== 'object' || candidate === null) return null;
  if (typeof (candidate as Eip1193Provider).request !== 'function') return null;
  return {
    id: 'injected',
    name: 'Browser wallet',
    icon: null,
    rdns: null,
    provider: candidate as Eip1193Provider,
  };
}

/**
 * The browser wallets of this page: every EIP-6963 announcement, or `window.ethereum` alone when
 * no wallet announces itself (older extensions, wallet apps' built-in browsers).
 */
export function browserWallets(details: readonly EIP6963ProviderDetail[]): BrowserWallet[] {
  if (details.length > 0) return details.map(fromDetail);
  const fallback = injected();
  return fallback === null ? [] : [fallback];
}

/** The browser wallets now, for code outside React (restoring a session). */
export function currentBrowserWallets(): BrowserWallet[] {
  return browserWallets(announced());
}

/** The browser wallets, updated as extensions announce themselves. */
export function useBrowserWallets(): BrowserWallet[] {
  const details = useSyncExternalStore(subscribe, announced, () => NONE);
  return useMemo(() => browserWallets(details), [details]);
}
