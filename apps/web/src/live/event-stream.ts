/** One Server-Sent Event: its name, its id (notifications carry one) and its JSON data. */
export interface StreamEvent {
  readonly event: string;
  readonly id: string | null;
  readonly data: unknown;
}

/** The first wait before reconnecting; it doubles after each failure, up to the most. */
const RECONNECT_FIRST_MS = 1_000;
const RECONNECT_MOST_MS = 30_000;

/**
 * Reads a Server-Sent Events stream with fetch, which, unlike EventSource, sends the player's
 * token in the Authorization header (docs/concepts/live-updates.md). It reconnects after a drop
 * or a server restart, waiting longer after each failure, and sends the last event id it had
 * (`Last-Event-ID`) so the server replays what was missed. A 4xx answer (signed out, a game gone)
 * stops it. `close` ends it.
 */
export function openEventStream(options: {
  url: string;
  /** The headers of each connection (a token read afresh each time); null to give up. */
  headers: () => Promise<Record<string, string> | null>;
  onEvent: (event: StreamEvent) => void;
  /** Each time a connection opens (the server then sends what it follows as it stands). */
  onOpen?: () => void;
}): () => void {
  const abort = new AbortController();
  let lastEventId: string | null = null;
  let waitMs = RECONNECT_FIRST_MS;

  const connect = async (): Promise<'again' | 'stop'> => {
    const headers = await options.headers();
    if (headers === null) return 'stop';
    const res = await fetch(options.url, {
      headers: {
        ...headers,
        accept: 'text/event-stream',
        ...(lastEventId === null ? {} : { 'last-event-id': lastEventId }),
      },
      signal: abort.signal,
    });
    // Refused for good (signed out, a game gone), but a player's full streams free up as their
    // other tabs close: 429 is tried again, with the backoff.
    if (res.status >= 400 && res.status < 500 && res.status !== 429) return 'stop';
    if (!res.ok || res.body === null) return 'again';
    waitMs = RECONNECT_FIRST_MS;
    options.onOpen?.();
    await readEvents(res.body, (event) => {
      if (event.id !== null) lastEventId = event.id;
      options.onEvent(event);
    });
    return 'again';
  };

  void (async () => {
    while (!abort.signal.aborted) {
      const next = await connect().catch(() => 'again' as const);
      if (next === 'stop' || abort.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      waitMs = Math.min(waitMs * 2, RECONNECT_MOST_MS);
    }
  })();
  return () => abort.abort();
}

/** Parses `text/event-stream` (WHATWG HTML §9.2) until the body ends. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: StreamEvent) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = parseBlock(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (event !== null) onEvent(event);
    }
  }
}

function parseBlock(block: string): StreamEvent | null {
  let event = 'message';
  let id: string | null = null;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  try {
    return { event, id, data: JSON.parse(data.join('\n')) as unknown };
  } catch {
    // Not ours: a proxy's page. The next connection starts clean.
    return null;
  }
}
