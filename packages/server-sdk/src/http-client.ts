import { ArcadeApiError, ArcadeNetworkError, apiErrorFrom } from './errors.js';

/** How long to wait for an answer, and how often to ask again when none comes. */
export interface RetryPolicy {
  readonly fetchTimeoutMs: number;
  /** Attempts in all for a request that is safe to repeat, the first included. */
  readonly maxAttempts: number;
  /** The wait before the second attempt; it doubles for each later one. */
  readonly retryBaseDelayMs: number;
}

/** One request to the arcade API. */
export interface HttpCall {
  readonly method: 'GET' | 'POST';
  /** The path below the base URL, starting with `/`; ids in it already encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | undefined>>;
  readonly body?: unknown;
  /** Sent as `Idempotency-Key`, the same on every attempt. */
  readonly idempotencyKey?: string;
  /** Whether sending it twice cannot act twice: a GET, or a POST with an idempotency key. */
  readonly isRetrySafe: boolean;
}

/** A bearer token, compared by identity to tell whether it was replaced. */
export interface Credential {
  readonly accessToken: string;
}

/** Where bearer tokens come from, and where to report one the server refused. */
export interface Credentials {
  current(): Promise<Credential>;
  /** Resolves once a token other than `credential` is current. */
  refused(credential: Credential): Promise<void>;
}

/**
 * JSON over `fetch` with coinop's error bodies: each attempt has a timeout, requests that are safe
 * to repeat are retried with backoff after a network failure or a 5xx, never after a 4xx.
 */
export class HttpClient {
  readonly #base: URL;
  readonly #policy: RetryPolicy;

  constructor(baseUrl: URL, policy: RetryPolicy) {
    // A trailing slash makes paths resolve below a base that has a path of its own.
    this.#base = new URL(baseUrl.href.endsWith('/') ? baseUrl.href : `${baseUrl.href}/`);
    this.#policy = policy;
  }

  /** The absolute URL of a path below the base URL. */
  url(path: string, query?: HttpCall['query']): URL {
    const url = new URL(path.replace(/^\/+/, ''), this.#base);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, value);
    }
    return url;
  }

  /** Sends the call and returns the parsed JSON of its 2xx response. */
  async send<T>(call: HttpCall, credentials?: Credentials): Promise<T> {
    const url = this.url(call.path, call.query);
    const what = `${call.method} ${url.pathname}`;
    const { maxAttempts } = this.#policy;
    let isReauthorized = false;
    for (let attempt = 1; ; attempt += 1) {
      const credential = credentials ? await credentials.current() : null;
      let answer: { status: number; text: string };
      try {
        answer = await this.#attempt(call, url, credential);
      } catch (error) {
        const tried = attempt === 1 ? '' : ` (after ${attempt} attempts)`;
        if (call.isRetrySafe && attempt < maxAttempts) {
          await this.#backoff(attempt);
          continue;
        }
        throw networkError(error, `${what}${tried}`, this.#policy.fetchTimeoutMs);
      }
      if (answer.status >= 200 && answer.status < 300) return parseJson<T>(answer, what);
      const error = apiErrorFrom(answer.status, answer.text, what);
      // An expired or rotated write token: refreshed once, then the same request again. The
      // server refused it before acting, so even an unsafe request may be repeated.
      if (credential && !isReauthorized && error.code === 'invalid_write_token') {
        isReauthorized = true;
        await credentials?.refused(credential);
        attempt -= 1;
        continue;
      }
      if (call.isRetrySafe && error.status >= 500 && attempt < maxAttempts) {
        await this.#backoff(attempt);
        continue;
      }
      throw error;
    }
  }

  async #attempt(
    call: HttpCall,
    url: URL,
    credential: Credential | null,
  ): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    if (credential) headers['authorization'] = `Bearer ${credential.accessToken}`;
    const response = await fetch(url, {
      method: call.method,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      // One timeout for the headers and the body: a response cut off midway is a network error.
      signal: AbortSignal.timeout(this.#policy.fetchTimeoutMs),
    });
    return { status: response.status, text: await response.text() };
  }

  #backoff(attempt: number): Promise<void> {
    const base = this.#policy.retryBaseDelayMs * 2 ** (attempt - 1);
    // Jitter spreads the retries of many game servers that failed together.
    const delayMs = base + Math.random() * this.#policy.retryBaseDelayMs;
    return new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}

function parseJson<T>(answer: { status: number; text: string }, what: string): T {
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    throw new ArcadeApiError(
      answer.status,
      'internal_error',
      `${what} answered ${answer.status} with a body that is not JSON`,
      { body: answer.text.slice(0, 200) },
    );
  }
}

/** Names what went wrong on the wire, keeping the original error as `cause`. */
export function networkError(error: unknown, what: string, timeoutMs: number): ArcadeNetworkError {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new ArcadeNetworkError('network_timeout', `${what}: no answer within ${timeoutMs} ms`, {
      cause: error,
    });
  }
  return new ArcadeNetworkError('network_error', `${what}: ${describe(error)}`, { cause: error });
}

/** undici says "fetch failed" and puts the reason (ECONNREFUSED, "other side closed") in cause. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return `${error.message}: ${typeof code === 'string' ? `${code} ` : ''}${cause.message}`;
  }
  return error.message;
}
