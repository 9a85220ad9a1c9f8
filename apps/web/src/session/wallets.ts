import { getAddress, stringToHex, type Hex } from 'viem';
import type { BrowserWallet, Eip1193Provider } from './wallet-discovery.js';

export type { BrowserWallet, Eip1193Provider } from './wallet-discovery.js';

/**
 * The two ways a player signs: a wallet extension in the browser (any EIP-1193 provider, found
 * through EIP-6963 or at `window.ethereum`), or the arcade wallet — a key kept in this browser's
 * storage for people without an extension. Both sign EIP-191 `personal_sign` messages.
 */
export type WalletKind = 'browser' | 'arcade';

export interface WalletSigner {
  readonly kind: WalletKind;
  /** EIP-55 checksummed. */
  readonly address: string;
  signMessage(message: string): Promise<string>;
}

/** EIP-1193's "user rejected the request". */
export const USER_REJECTED = 4001;

/** A wallet said no or failed; `rejected` when the person declined. */
export class WalletError extends Error {
  constructor(
    message: string,
    readonly rejected: boolean,
  ) {
    super(message);
  }
}

/**
 * The extension the player signed in with in this page, so deposits and play locks ask the same
 * wallet that signed in, not whichever extension won `window.ethereum`.
 */
let connectedProvider: Eip1193Provider | null = null;

/** `window.ethereum`, if the browser has one. */
export function injectedProvider(): Eip1193Provider | null {
  const candidate = (window as { ethereum?: unknown }).ethereum;
  if (typeof candidate !== 'object' || candidate === null) return null;
  return typeof (candidate as Eip1193Provider).request === 'function'
    ? (candidate as Eip1193Provider)
    : null;
}

/** The browser wallet's EIP-1193 provider: the one signed in with, else `window.ethereum`. */
export function provider(): Eip1193Provider | null {
  return connectedProvider ?? injectedProvider();
}

async function ask(wallet: Eip1193Provider, method: string, params?: unknown[]): Promise<unknown> {
  try {
    return await wallet.request(params === undefined ? { method } : { method, params });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = (error as { message?: unknown }).message;
    throw new WalletError(
      typeof message === 'string' && message !== '' ? message : 'The wallet refused',
      code === USER_REJECTED,
    );
  }
}

function browserSigner(wallet: Eip1193Provider, address: string): WalletSigner {
  connectedProvider = wallet;
  return {
    kind: 'browser',
    address,
    signMessage: async (message) => {
      // personal_sign takes the message as 0x-hex UTF-8, then the address (EIP-1193 wallets).
      const signature = await ask(wallet, 'personal_sign', [stringToHex(message), address]);
      if (typeof signature !== 'string')
        throw new WalletError('The wallet gave no signature', false);
      return signature;
    },
  };
}

/** Asks the extension for an account (it may show its own prompt). */
export async function connectBrowserWallet(wallet: BrowserWallet): Promise<WalletSigner> {
  const accounts = await ask(wallet.provider, 'eth_requestAccounts');
  const first = Array.isArray(accounts) ? accounts[0] : undefined;
  if (typeof first !== 'string') throw new WalletError('The wallet shared no account', false);
  return browserSigner(wallet.provider, getAddress(first));
}

/**
 * The browser wallet again after a reload, without a prompt, if one of `wallets` (the one
 * signed in with first) still has the account.
 */
export async function reconnectBrowserWallet(
  address: string,
  wallets: readonly BrowserWallet[],
): Promise<WalletSigner | null> {
  for (const wallet of wallets) {
    try {
      const accounts = await ask(wallet.provider, 'eth_accounts');
      const match = Array.isArray(accounts)
        ? accounts.find((a) => typeof a === 'string' && a.toLowerCase() === address.toLowerCase())
        : undefined;
      if (typeof match === 'string') return browserSigner(wallet.provider, getAddress(match));
    } catch {
      // A wallet that fails here is just not the one; try the next.
    }
  }
  return null;
}

// The arcade wallet's key in storage; signing with it is in arcade-wallet.ts, loaded when it signs.
const ARCADE_KEY_STORAGE = 'coinop.arcadeWallet.privateKey';
/** Keys an import replaced, newest first: never thrown away, so an import can be undone. */
const REPLACED_KEYS_STORAGE = 'coinop.arcadeWallet.replacedKeys';
const KEY_PATTERN = /^0x[0-9a-f]{64}$/;

/** The arcade wallet's key, if this browser has one. */
export function arcadeWalletKey(): Hex | null {
  const stored = localStorage.getItem(ARCADE_KEY_STORAGE);
  return stored !== null && KEY_PATTERN.test(stored) ? (stored as Hex) : null;
}

/**
 * Makes `key` the arcade wallet of this browser. The key it replaces is kept (replacedArcadeKeys)
 * so the player can export it and import it back.
 */
export function importArcadeKey(key: Hex): void {
  const current = arcadeWalletKey();
  if (current !== null && current !== key) {
    const replaced = [current, ...replacedArcadeKeys().filter((k) => k !== current && k !== key)];
    localStorage.setItem(REPLACED_KEYS_STORAGE, JSON.stringify(replaced));
  }
  localStorage.setItem(ARCADE_KEY_STORAGE, key);
}

/** Arcade wallet keys an import replaced in this browser, newest first. */
export function replacedArcadeKeys(): Hex[] {
  try {
    const stored = JSON.parse(localStorage.getItem(REPLACED_KEYS_STORAGE) ?? '[]') as unknown;
    return Array.isArray(stored)
      ? stored.filter((k): k is Hex => typeof k === 'string' && KEY_PATTERN.test(k))
      : [];
  } catch {
    return [];
  }
}
