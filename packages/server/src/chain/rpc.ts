import { BaseError, createPublicClient, http, TimeoutError, type PublicClient } from 'viem';
import type { ChainConfig } from '../config.js';

/**
 * The chain as the watcher reads it: viem's public client over JSON-RPC, with no cache (a stale
 * head would only delay crediting) and no retries of its own (the watcher backs off instead).
 */
export function createChainClient(chain: ChainConfig): PublicClient {
  return createPublicClient({
    transport: http(chain.rpcUrl, { timeout: chain.rpcTimeoutMs, retryCount: 0 }),
    cacheTime: 0,
  });
}

/**
 * The RPC URL as logs and the admin API may show it: scheme and host only, since providers put
 * the account's key in the path or query (`/v3/<key>`), and user and password never.
 *
 * @example
 * redactRpcUrl('https://mainnet.example.io/v3/secret'); // 'https://mainnet.example.io/…'
 */
export function redactRpcUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  const more = url.pathname !== '/' || url.search !== '' || url.hash !== '';
  return `${url.protocol}//${url.host}${more ? '/…' : ''}`;
}

/**
 * One line saying why a chain call failed, safe to log and to show an operator: viem's short
 * message and its detail, never the request body, with every form of the RPC URL redacted; then
 * which RPC (host and port only) and the cause underneath (`ECONNREFUSED`, `timed out`), which
 * viem's words alone ("HTTP request failed. (fetch failed)") do not say.
 */
export function describeChainError(error: unknown, rpcUrl: string): string {
  let text: string;
  if (error instanceof BaseError) {
    text = error.details ? `${error.shortMessage} (${error.details})` : error.shortMessage;
  } else if (error instanceof Error) {
    text = error.message;
  } else {
    text = String(error);
  }
  const url = new URL(rpcUrl);
  const withoutUser = `${url.protocol}//${url.host}${url.pathname}${url.search}`;
  const forms = [rpcUrl, url.href, withoutUser, withoutUser.replace(/\/$/, '')]
    .filter((form) => form.length > `${url.protocol}//${url.host}`.length)
    .sort((a, b) => b.length - a.length);
  for (const form of forms) text = text.replaceAll(form, redactRpcUrl(rpcUrl));
  // A key in the path or query can also surface alone, e.g. in a provider's own error text.
  const parts = [...url.pathname.split('/'), ...url.searchParams.values()];
  for (const part of parts) {
    if (part.length >= MIN_KEY_CHARS) text = text.replaceAll(part, '…');
  }
  const cause = rootCause(error);
  const where = ` at RPC ${rpcHostPort(url)}${cause === null ? '' : ` (${cause})`}`;
  return (
    text
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, MAX_ERROR_CHARS - where.length) + where
  );
}

/** `host:port` of the RPC, the scheme's port when the URL gives none: no user, path or query. */
function rpcHostPort(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname}:${port}`;
}

/**
 * The system's code for why the request failed, from the innermost error that has one (fetch
 * wraps the socket's `ECONNREFUSED`, `ENOTFOUND`, … as its cause), or `timed out`; else null.
 */
function rootCause(error: unknown): string | null {
  let code: string | null = null;
  let at: unknown = error;
  for (let depth = 0; at instanceof Error && depth < MAX_CAUSE_DEPTH; depth++) {
    if (at instanceof TimeoutError) return 'timed out';
    const own = (at as { code?: unknown }).code;
    // Several addresses tried (IPv4 and IPv6): an AggregateError, each with its code.
    const first = at instanceof AggregateError ? (at.errors[0] as { code?: unknown }) : null;
    if (typeof own === 'string') code = own;
    else if (typeof first?.code === 'string') code = first.code;
    at = at.cause;
  }
  return code;
}

/** Shorter path segments (`v3`, `rpc`, `mainnet`) are names, not keys, and are kept. */
const MIN_KEY_CHARS = 16;
/** Enough for viem's wrappers around fetch's error around the socket's. */
const MAX_CAUSE_DEPTH = 8;
/** An error line is for a person: a provider's whole HTML error page is not. */
const MAX_ERROR_CHARS = 500;
