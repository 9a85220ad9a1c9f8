import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { arcadeWalletKey, importArcadeKey, type WalletSigner } from './wallets.js';

/**
 * The arcade wallet's signing: its key as a viem account. secp256k1 and viem's account code are
 * most of the wallet code's weight, so this module is imported when the arcade wallet signs or a
 * key is pasted, not with the catalog (the player signed out, or with an extension, needs none).
 */

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
    // No key yet, so none is set aside: kept as an import would keep it.
    importArcadeKey(key);
  }
  const account = privateKeyToAccount(key);
  return {
    kind: 'arcade',
    address: account.address,
    signMessage: (message) => account.signMessage({ message }),
  };
}

/** A pasted private key that is not one; the message says what is wrong, never the key. */
export class InvalidKeyError extends Error {}

/**
 * The private key typed or pasted by a player, normalised (`0x`, lower case), with the address
 * it controls. Throws InvalidKeyError naming the problem.
 */
export function parsePrivateKey(typed: string): { key: Hex; address: string } {
  const trimmed = typed.trim();
  if (trimmed === '') throw new InvalidKeyError('Paste the private key first.');
  const hex = (/^0x/i.test(trimmed) ? trimmed.slice(2) : trimmed).toLowerCase();
  if (/^[0-9a-f]{40}$/.test(hex)) {
    throw new InvalidKeyError(
      'That is a wallet address, not a private key: the key is 64 hexadecimal characters.',
    );
  }
  if (/[^0-9a-f]/.test(hex)) {
    throw new InvalidKeyError(
      'A private key has only the characters 0–9 and a–f (after an optional 0x).',
    );
  }
  if (hex.length !== 64) {
    throw new InvalidKeyError(
      `A private key is 64 hexadecimal characters; this one has ${hex.length}.`,
    );
  }
  const key = `0x${hex}` as Hex;
  try {
    return { key, address: privateKeyToAccount(key).address };
  } catch {
    // Zero, or not below the secp256k1 group order: no account has it.
    throw new InvalidKeyError('This is not a valid Ethereum private key.');
  }
}
