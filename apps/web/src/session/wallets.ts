import { getAddress, stringToHex, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

/**
 * The two ways a player signs: a wallet extension in the browser (any EIP-1193 provider at
 * `window.ethereum`), or the arcade wallet — a key generated and kept in this browser's storage
 * for people without an extension. Both sign EIP-191 `personal_sign` messages.
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

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** The browser wallet's EIP-1193 provider (`window.ethereum`), if there is one. */
export function provider(): Eip1193Provider | null {
  const candidate = (window as { ethereum?: unknown }).ethereum;
  if (typeof candidate !== 'object' || candidate === null) return null;
  return typeof (candidate as Eip1193Provider).request === 'function'
    ? (candidate as Eip1193Provider)
    : null;
}

export function hasBrowserWallet(): boolean {
  return provider() !== null;
}

async function ask(method: string, params?: unknown[]): Promise<unknown> {
  const p = provider();
  if (!p)
    throw new WalletError('No browser wallet found: install one or use the arcade wallet', false);
  try {
    return await p.request(params === undefined ? { method } : { method, params });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = (error as { message?: unknown }).message;
    throw new WalletError(
      typeof message === 'string' && message !== '' ? message : 'The wallet refused',
      code === USER_REJECTED,
    );
  }
}

function browserSigner(address: string): WalletSigner {
  return {
    kind: 'browser',
    address,
    signMessage: async (message) => {
      // personal_sign takes the message as 0x-hex UTF-8, then the address (EIP-1193 wallets).
      const signature = await ask('personal_sign', [stringToHex(message), address]);
      if (typeof signature !== 'string')
        throw new WalletError('The wallet gave no signature', false);
      return signature;
    },
  };
}

/** Asks the extension for an account (it may show its own prompt). */
export async function connectBrowserWallet(): Promise<WalletSigner> {
  const accounts = await ask('eth_requestAccounts');
  const first = Array.isArray(accounts) ? accounts[0] : undefined;
  if (typeof first !== 'string') throw new WalletError('The wallet shared no account', false);
  return browserSigner(getAddress(first));
}

/** The browser wallet again after a reload, without a prompt, if it still has the account. */
export async function reconnectBrowserWallet(address: string): Promise<WalletSigner | null> {
  if (!hasBrowserWallet()) return null;
  try {
    const accounts = await ask('eth_accounts');
    const match = Array.isArray(accounts)
      ? accounts.find((a) => typeof a === 'string' && a.toLowerCase() === address.toLowerCase())
      : undefined;
    return typeof match === 'string' ? browserSigner(getAddress(match)) : null;
  } catch {
    return null;
  }
}

const ARCADE_KEY_STORAGE = 'coinop.arcadeWallet.privateKey';

/** The arcade wallet's key, if this browser has one. */
export function arcadeWalletKey(): Hex | null {
  const stored = localStorage.getItem(ARCADE_KEY_STORAGE);
  return stored !== null && /^0x[0-9a-f]{64}$/.test(stored) ? (stored as Hex) : null;
}

/** The arcade wallet's key as a viem account, to sign transactions; null without one. */
export function arcadeAccount(): PrivateKeyAccount | null {
  const key = arcadeWalletKey();
  return key === null ? null : privateKeyToAccount(key);
}

/** The arcade wallet of this browser, made on first use. */
export function arcadeWallet(): WalletSigner {
  let key = arcadeWalletKey();
  if (key === null) {
    key = generatePrivateKey();
    localStorage.setItem(ARCADE_KEY_STORAGE, key);
  }
  const account = privateKeyToAccount(key);
  return {
    kind: 'arcade',
    address: account.address,
    signMessage: (message) => account.signMessage({ message }),
  };
}
