import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * A comment line every so often, so a proxy or load balancer that drops idle connections keeps
 * this one, and a client learns soon that a dead one is dead.
 */
export const HEARTBEAT_MS = 15_000;
/** How long a client waits before reconnecting (the SSE `retry:` field). */
export const RETRY_MS = 2_000;

/**
 * One Server-Sent Events response (the WHATWG HTML standard's `text/event-stream`): events as
 * `event:`/`id:`/`data:` lines, a heartbeat comment, and `retry:`. Sent as the reply's body, so
 * the listener's hooks (security headers, the request log) apply as to any response. Knows no
 * routes: what to send is the caller's.
 */
export class EventStream {
  readonly #out = new PassThrough();
  readonly #heartbeat: NodeJS.Timeout;
  readonly #onClose: (() => void)[] = [];
  #closed = false;

  constructor(reply: FastifyReply, heartbeatMs = HEARTBEAT_MS) {
    void reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store')
      // nginx buffers responses by default; this one must go out as written.
      .header('x-accel-buffering', 'no')
      // Not kept alive once the stream ends: a server closing ends its streams, and a connection
      // that went idle just after would hold the close up for the keep-alive timeout (72 s).
      .header('connection', 'close')
      .send(this.#out);
    this.#out.write(`retry: ${RETRY_MS}\n\n`);
    this.#heartbeat = setInterval(() => this.#write(': heartbeat\n\n'), heartbeatMs);
    this.#heartbeat.unref();
    reply.raw.on('close', () => this.close());
  }

  /** Whether the stream has ended (the client went away, or `close` was called). */
  get closed(): boolean {
    return this.#closed;
  }

  /** Sends one event; `id` becomes the client's `Last-Event-ID` for its next connection. */
  send(event: string, data: unknown, id?: string): void {
    const idLine = id === undefined ? '' : `id: ${id}\n`;
    this.#write(`event: ${event}\n${idLine}data: ${JSON.stringify(data)}\n\n`);
  }

  /** Calls `listener` once, when the stream ends. */
  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#onClose.push(listener);
  }

  /** Ends the stream; the client reconnects after `retry`. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    this.#out.end();
    for (const listener of this.#onClose.splice(0)) listener();
  }

  #write(text: string): void {
    if (!this.#closed) this.#out.write(text);
  }
}
