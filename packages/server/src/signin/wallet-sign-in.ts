import { randomBytes } from 'node:crypto';
import { getAddress, isAddress, type Address, type Hex } from 'viem';
import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { CoinopError, type Clock, type Ids } from '@coinop/core';
import type { Db } from '../store/db.js';
import {
  createPlayer,
  findPlayer,
  findPlayerByWallet,
  normalizeWallet,
  type PlayerRecord,
} from '../store/players.js';
import {
  findChallenge,
  insertChallenge,
  purgeChallenges,
  useChallenge,
} from '../store/signin-challenges.js';
import { issuerUrl, type PlayerTokens, type WebSession } from '../credentials/player-tokens.js';
import type { ValidPlayerToken } from '../credentials/validate-player-token.js';
import type { WalletVerifier } from '../credentials/wallet-signature.js';

/** The sentence the wallet shows above the fields (EIP-4361 statement). */
export const SIWE_STATEMENT =
  'Sign in to coinop with this wallet. Signing is free and sends no transaction.';
/** Challenges are kept this long after expiring, so a late replay still says "expired". */
const CHALLENGE_RETENTION_MS = 86_400_000;
const PURGE_BATCH = 100;

export interface WalletSignInDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly tokens: PlayerTokens;
  readonly wallets: WalletVerifier;
  /** Public host[:port] of the sign-in service: the messages' domain. */
  readonly authIssuer: string;
  /**
   * The arcade web app's origins (`--web-origin`). A challenge asked for from one of these
   * pages names that page's host, so the wallet sees the site it is on; the rest name the
   * sign-in service.
   */
  readonly webOrigins: readonly string[];
  readonly challengeTtlSeconds: number;
  /** How long after the wallet's signature a web session can be renewed. */
  readonly webSessionMaxAgeSeconds: number;
}

export interface Challenge {
  message: string;
  nonce: string;
  expiresAt: Date;
}

export interface SignedIn {
  accessToken: string;
  expiresInSeconds: number;
  player: PlayerRecord;
}

/**
 * Issues an EIP-4361 message for `address`, bound to this service's domain and URI, with a
 * single-use nonce and a short expiry, and remembers it.
 */
export async function issueChallenge(
  deps: WalletSignInDeps,
  address: string,
  pageOrigin: string | null = null,
): Promise<Challenge> {
  if (!isAddress(address)) {
    // The schema has checked the shape; this is a mixed-case address with a wrong EIP-55 checksum.
    throw new CoinopError('validation_failed', `address ${address} has a wrong EIP-55 checksum`, {
      details: { field: 'address', in: 'body' },
    });
  }
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + deps.challengeTtlSeconds * 1000);
  // EIP-4361: at least 8 alphanumerics; 128 random bits.
  const nonce = randomBytes(16).toString('hex');
  const message = createSiweMessage({
    address: getAddress(address),
    chainId: await deps.wallets.chainId().catch((error: unknown) => {
      throw chainUnavailable(error);
    }),
    ...messageSite(deps, pageOrigin),
    version: '1',
    nonce,
    issuedAt: now,
    expirationTime: expiresAt,
    statement: SIWE_STATEMENT,
  });
  await purgeChallenges(deps.db, new Date(now.getTime() - CHALLENGE_RETENTION_MS), PURGE_BATCH);
  await insertChallenge(deps.db, {
    nonce,
    address: normalizeWallet(address),
    message,
    createdAt: now,
    expiresAt,
  });
  return { message, nonce, expiresAt };
}

/**
 * Signs a wallet in with a signed challenge: the message must be one this service issued, for
 * its domain, unexpired and unused, and the signature must be the address's. Spends the nonce,
 * creates the player on the address's first sign-in, and issues a player token. Every refusal
 * happens before anything is written.
 */
export async function verifySignIn(
  deps: WalletSignInDeps,
  input: { message: string; signature: string },
): Promise<SignedIn> {
  const { message, signature } = input;
  const fields = parseSiweMessage(message);
  if (fields.domain === undefined || fields.nonce === undefined || fields.address === undefined) {
    throw new CoinopError(
      'invalid_siwe_message',
      'message is not an EIP-4361 sign-in message: sign the message from POST /wallet/challenge',
      { details: { field: 'message' } },
    );
  }
  const site = messageSite(deps, originOf(fields.uri));
  if (fields.domain !== site.domain || fields.uri !== site.uri) {
    throw new CoinopError(
      'wrong_domain',
      `message is for ${fields.domain} (${fields.uri ?? 'no URI'}), not this sign-in service ` +
        `${deps.authIssuer}`,
      { details: { domain: fields.domain, expected: deps.authIssuer } },
    );
  }
  const challenge = await findChallenge(deps.db, fields.nonce);
  if (!challenge) {
    throw new CoinopError('challenge_not_found', `nonce ${fields.nonce} was not issued here`);
  }
  if (challenge.message !== message) {
    throw new CoinopError(
      'invalid_siwe_message',
      `message differs from the one issued for nonce ${fields.nonce}: sign it unchanged`,
      { details: { field: 'message' } },
    );
  }
  const now = deps.clock.now();
  if (now.getTime() >= challenge.expiresAt.getTime()) {
    throw new CoinopError(
      'challenge_expired',
      `the challenge with nonce ${fields.nonce} expired at ${challenge.expiresAt.toISOString()}`,
    );
  }
  if (challenge.usedAt !== null) {
    throw new CoinopError('nonce_used', `nonce ${fields.nonce} has already signed in once`);
  }
  const address = fields.address as Address;
  if (!(await signatureIsFrom(deps, address, message, signature))) {
    throw new CoinopError(
      'invalid_signature',
      `signature was not made by ${address} over this message`,
      { details: { field: 'signature' } },
    );
  }
  // The conditional update decides between two concurrent verifications of one message.
  if (!(await useChallenge(deps.db, challenge.nonce, now))) {
    throw new CoinopError('nonce_used', `nonce ${fields.nonce} has already signed in once`);
  }
  const player = await playerForWallet(deps, challenge.address);
  // A wallet signs in to the arcade's own pages: a web session, not a token for games.
  const { accessToken, expiresInSeconds } = await deps.tokens.issueWebSession(player, now);
  return { accessToken, expiresInSeconds, player };
}

/**
 * A fresh web session token for the session a valid one proves, resting on the same wallet
 * signature: refused once max age has passed since it (the wallet signs in again then).
 */
export async function renewWebSession(
  deps: WalletSignInDeps,
  session: ValidPlayerToken,
): Promise<WebSession> {
  const authTime = session.authTime ?? session.issuedAt;
  const now = deps.clock.now();
  if (now.getTime() >= authTime.getTime() + deps.webSessionMaxAgeSeconds * 1000) {
    throw new CoinopError(
      'invalid_player_token',
      'this session is too old to renew: sign in with your wallet again',
      { details: { reason: 'session_too_old' } },
    );
  }
  const player = await findPlayer(deps.db, session.playerId);
  if (!player) {
    throw new CoinopError('player_not_found', `player ${session.playerId} does not exist`);
  }
  return deps.tokens.issueWebSession(player, authTime);
}

/** The domain and URI a message names: the asking web page's, when trusted, else this service's. */
function messageSite(
  deps: WalletSignInDeps,
  pageOrigin: string | null,
): { domain: string; uri: string } {
  if (pageOrigin !== null && deps.webOrigins.includes(pageOrigin)) {
    return { domain: new URL(pageOrigin).host, uri: `${pageOrigin}/` };
  }
  return { domain: deps.authIssuer, uri: issuerUrl(deps.authIssuer) };
}

function originOf(uri: string | undefined): string | null {
  try {
    return uri === undefined ? null : new URL(uri).origin;
  } catch {
    return null;
  }
}

async function signatureIsFrom(
  deps: WalletSignInDeps,
  address: Address,
  message: string,
  signature: string,
): Promise<boolean> {
  try {
    return await deps.wallets.check({ address, message, signature: signature as Hex });
  } catch (error) {
    if (isNetworkError(error)) throw chainUnavailable(error);
    // viem throws on a signature it cannot parse (wrong length, bad recovery byte).
    return false;
  }
}

/** A chain that cannot be asked is not the signature's fault. */
function isNetworkError(error: unknown): boolean {
  return (
    error instanceof Error &&
    ['HttpRequestError', 'TimeoutError', 'RpcRequestError'].includes(error.name)
  );
}

function chainUnavailable(error: unknown): CoinopError {
  return new CoinopError('service_unavailable', 'cannot reach the chain (--chain-rpc-url)', {
    cause: error,
  });
}

/** The wallet's player, created on its first sign-in (one player per wallet, even in a race). */
async function playerForWallet(deps: WalletSignInDeps, wallet: string): Promise<PlayerRecord> {
  const found = await findPlayerByWallet(deps.db, wallet);
  if (found) return found;
  try {
    return await createPlayer(deps.db, deps.clock, deps.ids, { wallet });
  } catch (error) {
    if (error instanceof CoinopError && error.code === 'wallet_already_registered') {
      const winner = await findPlayerByWallet(deps.db, wallet);
      if (winner) return winner;
    }
    throw error;
  }
}
