import type { WriteTokenGrant, WriteTokenRequest } from '@coinop/protocol';
import { ArcadeApiError } from './errors.js';
import type { Credential, Credentials, HttpClient } from './http-client.js';
import type { Clock } from './options.js';

/** A write token with what it is for and when to replace it, by the SDK's clock. */
export interface WriteToken extends Credential {
  readonly developerId: string;
  readonly gameId: string;
  readonly arcadeId: string;
  readonly refreshAtMs: number;
  readonly expiresAtMs: number;
}

/** The answer as received: each field is checked before it is trusted. */
type UncheckedWriteTokenGrant = { readonly [Field in keyof WriteTokenGrant]?: unknown };

/**
 * The write token of one set of client credentials (spec 4.2, 5.2): fetched once, reused, and
 * replaced when `refreshAtLifeFraction` of its life has passed, by one request however many
 * calls need it at that moment.
 */
export class WriteTokens implements Credentials {
  readonly #http: HttpClient;
  readonly #clientId: string;
  readonly #clientSecret: string;
  readonly #clock: Clock;
  readonly #refreshAtLifeFraction: number;
  #token: WriteToken | null = null;
  #refreshing: Promise<WriteToken> | null = null;

  constructor(
    http: HttpClient,
    credentials: { clientId: string; clientSecret: string },
    clock: Clock,
    refreshAtLifeFraction: number,
  ) {
    this.#http = http;
    this.#clientId = credentials.clientId;
    this.#clientSecret = credentials.clientSecret;
    this.#clock = clock;
    this.#refreshAtLifeFraction = refreshAtLifeFraction;
  }

  /** The token to send now, fetching a new one when it is due. */
  async current(): Promise<WriteToken> {
    const token = this.#token;
    if (token !== null && this.#nowMs() < token.refreshAtMs) return token;
    try {
      return await this.#refresh();
    } catch (error) {
      // A refresh that failed early leaves a token that still works until it expires.
      if (token !== null && this.#nowMs() < token.expiresAtMs) return token;
      throw error;
    }
  }

  /** The server refused `credential` (expired early, or its key rotated): replace it once. */
  async refused(credential: Credential): Promise<void> {
    if (this.#refreshing !== null) {
      await this.#refreshing;
      return;
    }
    // Another call already replaced the refused token.
    if (this.#token !== credential) return;
    await this.#refresh();
  }

  #refresh(): Promise<WriteToken> {
    this.#refreshing ??= this.#issue().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #issue(): Promise<WriteToken> {
    // Life is counted from before the request, so the token is replaced early rather than late.
    const requestedAtMs = this.#nowMs();
    const body = await this.#http.send<UncheckedWriteTokenGrant>({
      method: 'POST',
      path: '/oauth/writetoken',
      body: {
        client_id: this.#clientId,
        client_secret: this.#clientSecret,
      } satisfies WriteTokenRequest,
      // Issuing a token changes nothing on the server.
      isRetrySafe: true,
    });
    const { access_token, expires_in, developerId, gameId, arcadeId } = body;
    if (
      typeof access_token !== 'string' ||
      typeof expires_in !== 'number' ||
      !(expires_in > 0) ||
      typeof developerId !== 'string' ||
      typeof gameId !== 'string' ||
      typeof arcadeId !== 'string'
    ) {
      throw new ArcadeApiError(
        200,
        'internal_error',
        'POST /oauth/writetoken answered without access_token, expires_in, gameId and arcadeId',
      );
    }
    const lifeMs = expires_in * 1000;
    const token: WriteToken = {
      accessToken: access_token,
      developerId,
      gameId,
      arcadeId,
      refreshAtMs: requestedAtMs + lifeMs * this.#refreshAtLifeFraction,
      expiresAtMs: requestedAtMs + lifeMs,
    };
    this.#token = token;
    return token;
  }

  #nowMs(): number {
    return this.#clock.now().getTime();
  }
}
