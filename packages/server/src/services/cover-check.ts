import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { imageSize } from 'image-size';
import { CoinopError } from '@coinop/core';
import type { Config } from '../config.js';

/** Spec 2.9 and 8.1: a cover is 1920×1080 pixels. */
export const COVER_WIDTH = 1920;
export const COVER_HEIGHT = 1080;
/** Each redirect is re-checked like the first URL; three is plenty for a CDN. */
export const COVER_MAX_REDIRECTS = 3;
/** Raster formats a browser shows everywhere. SVG is left out: it can carry script. */
const COVER_TYPES = new Map([
  ['png', 'PNG'],
  ['jpg', 'JPEG'],
  ['gif', 'GIF'],
  ['webp', 'WebP'],
  ['avif', 'AVIF'],
]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The limits of one cover fetch, taken from config. */
export interface CoverPolicy {
  /** Whole fetch, all redirects included. */
  readonly fetchTimeoutMs: number;
  /** Bodies beyond this are not read. */
  readonly maxBytes: number;
  /** Lets the arcade fetch loopback and private addresses (`--allow-private-urls`). */
  readonly allowPrivateUrls: boolean;
}

export function coverPolicy(
  config: Pick<Config, 'coverFetchTimeoutMs' | 'coverMaxBytes' | 'allowPrivateUrls'>,
): CoverPolicy {
  return {
    fetchTimeoutMs: config.coverFetchTimeoutMs,
    maxBytes: config.coverMaxBytes,
    allowPrivateUrls: config.allowPrivateUrls,
  };
}

/** Fetches a cover's bytes within the policy, or throws `cover_unreachable` saying why. */
export type CoverFetcher = (url: string, policy: CoverPolicy) => Promise<Uint8Array>;

/** What a cover turned out to be. */
export interface CoverImage {
  readonly type: string;
  readonly width: number;
  readonly height: number;
}

/** Fetches a cover URL and checks it is a 1920×1080 image; resolves to what it found. */
export type CoverCheck = (url: string) => Promise<CoverImage>;

/** A cover check with the policy and the fetcher bound; tests pass their own fetcher. */
export function createCoverCheck(
  policy: CoverPolicy,
  fetchBytes: CoverFetcher = fetchCoverBytes,
): CoverCheck {
  return async (url) => inspectCover(await fetchBytes(url, policy));
}

/** An image's format (`png`, `jpg`, `webp`, …) and the size it shows at. */
export interface ImageSize {
  readonly type: string;
  readonly width: number;
  readonly height: number;
}

/**
 * Reads an image's format and the size it shows at from its bytes (EXIF orientations 5–8 turn the
 * picture a quarter: it shows with width and height swapped); null when the bytes are not an image
 * the arcade can read. Covers and avatars both check their uploads with it.
 */
export function readImageSize(bytes: Uint8Array): ImageSize | null {
  let found: ReturnType<typeof imageSize>;
  try {
    found = imageSize(bytes);
  } catch {
    return null;
  }
  const turned = (found.orientation ?? 1) >= 5;
  return {
    type: found.type ?? 'unknown',
    width: turned ? found.height : found.width,
    height: turned ? found.width : found.height,
  };
}

/**
 * Reads an image's type and size from its bytes. Throws `cover_not_image` when it is not an
 * image of an accepted format and `cover_wrong_size` when it is not 1920×1080.
 */
export function inspectCover(bytes: Uint8Array): CoverImage {
  const found = readImageSize(bytes);
  if (found === null) {
    throw new CoinopError(
      'cover_not_image',
      'coverUrl is not an image the arcade can read (PNG, JPEG, GIF, WebP or AVIF)',
      { details: { field: 'coverUrl' } },
    );
  }
  const { type, width, height } = found;
  if (!COVER_TYPES.has(type)) {
    throw new CoinopError(
      'cover_not_image',
      `coverUrl must be a PNG, JPEG, GIF, WebP or AVIF image, found ${type}`,
      { details: { field: 'coverUrl', type } },
    );
  }
  if (width !== COVER_WIDTH || height !== COVER_HEIGHT) {
    throw new CoinopError(
      'cover_wrong_size',
      `cover image must be ${COVER_WIDTH}x${COVER_HEIGHT}, found ${width}x${height}`,
      { details: { field: 'coverUrl', width, height } },
    );
  }
  return { type, width, height };
}

type UnreachableReason =
  | 'timeout'
  | 'http_status'
  | 'private_address'
  | 'too_large'
  | 'too_many_redirects'
  | 'bad_redirect'
  | 'network';

function unreachable(reason: UnreachableReason, why: string, url: URL): CoinopError {
  return new CoinopError('cover_unreachable', `coverUrl could not be fetched: ${why}`, {
    details: { field: 'coverUrl', reason, url: url.href },
  });
}

/** Thrown from the DNS hook so the fetch can tell a refusal from a network failure. */
class RefusedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}`);
  }
}

/**
 * Whether an address is public unicast. IPv4-mapped IPv6 is judged as the IPv4 it carries;
 * loopback, private, link-local, unique-local, unspecified, multicast, reserved, carrier-grade NAT
 * and the tunnelling ranges (6to4, Teredo, NAT64) are not public.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * DNS resolution that refuses the whole host when any address it resolves to is not public,
 * and hands the connection exactly the addresses it checked, so a second, different answer
 * (DNS rebinding) can never be what the socket connects to.
 */
function guardedLookup(policy: CoverPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const all = { all: true, family: options.family ?? 0, hints: options.hints ?? 0 } as const;
    dnsLookup(hostname, all, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '');
      const refused = policy.allowPrivateUrls
        ? undefined
        : addresses.find((a) => !isPublicAddress(a.address));
      if (refused) return callback(new RefusedAddressError(hostname, refused.address), '');
      const first = addresses[0];
      if (!first) return callback(noAddress(hostname), '');
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

function noAddress(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
}

/**
 * The default cover fetcher: GET over http(s) with no connection reuse, a deadline over the
 * whole fetch, at most `COVER_MAX_REDIRECTS` redirects (each re-checked), every address checked
 * before connecting unless private URLs are allowed, and the body read up to `maxBytes` only.
 */
export const fetchCoverBytes: CoverFetcher = async (url, policy) => {
  const signal = AbortSignal.timeout(policy.fetchTimeoutMs);
  const lookup = guardedLookup(policy);
  let current = new URL(url);
  for (let redirects = 0; ; redirects++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') {
      throw unreachable(
        'bad_redirect',
        `redirected to ${current.href}, which is not http(s)`,
        current,
      );
    }
    // The socket skips DNS for a literal address, so the hook never sees it: check it here.
    const literal = current.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !policy.allowPrivateUrls && !isPublicAddress(literal)) {
      throw refusedAddress(current, literal, literal);
    }
    const response = await get(current, lookup, signal, policy);
    const status = response.statusCode ?? 0;
    if (REDIRECT_STATUSES.has(status)) {
      // Destroyed, not drained: a body still arriving when the deadline hits must not throw.
      response.destroy();
      const location = response.headers.location;
      if (!location) {
        throw unreachable('bad_redirect', `HTTP ${status} without a Location header`, current);
      }
      if (redirects >= COVER_MAX_REDIRECTS) {
        throw unreachable(
          'too_many_redirects',
          `more than ${COVER_MAX_REDIRECTS} redirects`,
          current,
        );
      }
      const next = URL.parse(location, current.href);
      if (!next) {
        throw unreachable('bad_redirect', `HTTP ${status} to an invalid Location`, current);
      }
      current = next;
      continue;
    }
    if (status !== 200) {
      response.destroy();
      throw unreachable('http_status', `the server answered HTTP ${status}`, current);
    }
    return readBody(response, current, signal, policy);
  }
};

function refusedAddress(url: URL, host: string, address: string): CoinopError {
  const what = host === address ? `${address} is` : `${host} resolves to ${address}, which is`;
  return unreachable(
    'private_address',
    `${what} a loopback, private or reserved address, and the arcade fetches only public ` +
      'addresses (an operator can allow them with --allow-private-urls)',
    url,
  );
}

function failure(error: unknown, url: URL, signal: AbortSignal, policy: CoverPolicy): CoinopError {
  if (error instanceof CoinopError) return error;
  if (signal.aborted) {
    return unreachable('timeout', `no complete answer within ${policy.fetchTimeoutMs} ms`, url);
  }
  if (error instanceof RefusedAddressError) return refusedAddress(url, error.host, error.address);
  const code = (error as NodeJS.ErrnoException).code;
  return unreachable('network', code ?? (error as Error).message, url);
}

function get(
  url: URL,
  lookup: LookupFunction,
  signal: AbortSignal,
  policy: CoverPolicy,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'GET',
        agent: false,
        lookup,
        signal,
        headers: { accept: 'image/*', 'accept-encoding': 'identity', 'user-agent': 'coinop' },
      },
      resolve,
    );
    request.on('error', (error) => reject(failure(error, url, signal, policy)));
    request.end();
  });
}

async function readBody(
  response: http.IncomingMessage,
  url: URL,
  signal: AbortSignal,
  policy: CoverPolicy,
): Promise<Uint8Array> {
  const tooLarge = () =>
    unreachable('too_large', `the image is larger than ${policy.maxBytes} bytes`, url);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > policy.maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > policy.maxBytes) {
        response.destroy();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw failure(error, url, signal, policy);
  }
  return Buffer.concat(chunks);
}
