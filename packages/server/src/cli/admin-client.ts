import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CliError, ExitCodes } from './cli-error.js';

/**
 * The HTTP side of `coinop admin`: finds the admin token and calls the admin API with Node's
 * fetch. Imports nothing of the server, so a command answers in the time Node takes to start.
 */

export const DEFAULT_SERVER = 'http://127.0.0.1:8080';
export const DEFAULT_DATA_DIR = './.coinop';
/** Admin calls are single-row writes or one audit query; a minute means something is wrong. */
export const ADMIN_REQUEST_TIMEOUT_MS = 60_000;
/** Same name as the server writes in its data directory (see main.ts). */
const ADMIN_TOKEN_FILE = 'admin-token';

export interface AdminConnection {
  readonly server: string;
  readonly adminToken: string;
}

export interface AdminRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: Record<string, unknown>;
}

/** The server URL and token from the common flags, or a usage error saying what is missing. */
export async function connect(options: {
  server?: string | undefined;
  adminToken?: string | undefined;
  dataDir?: string | undefined;
}): Promise<AdminConnection> {
  const server = (options.server ?? DEFAULT_SERVER).replace(/\/+$/, '');
  if (!URL.canParse(server) || !/^https?:$/.test(new URL(server).protocol)) {
    throw new CliError(`--server must be an http(s) URL, got ${server}`, ExitCodes.usage);
  }
  if (options.adminToken !== undefined && options.adminToken !== '') {
    return { server, adminToken: options.adminToken };
  }
  const path = join(resolve(options.dataDir ?? DEFAULT_DATA_DIR), ADMIN_TOKEN_FILE);
  let token: string;
  try {
    token = (await readFile(path, 'utf8')).trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `no admin token: give --admin-token or COINOP_ADMIN_TOKEN, or --data-dir of the server (${path}: ${code ?? 'unreadable'})`,
      ExitCodes.usage,
    );
  }
  if (token === '') throw new CliError(`no admin token: ${path} is empty`, ExitCodes.usage);
  return { server, adminToken: token };
}

/** Calls the admin API and returns the JSON body, or throws a CliError with the server's message. */
export async function callAdmin(conn: AdminConnection, request: AdminRequest): Promise<unknown> {
  return callServer(conn.server, { authorization: `Bearer ${conn.adminToken}` }, request);
}

/**
 * Calls the arcade's API with `credential` headers and returns the JSON body, or throws a
 * CliError with the server's message: a JSON body, or `text` sent as `contentType`.
 */
export async function callServer(
  server: string,
  credential: Record<string, string>,
  request: {
    readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    readonly path: string;
    readonly body?: Record<string, unknown>;
    readonly text?: { readonly contentType: string; readonly content: string };
  },
): Promise<unknown> {
  const url = `${server}${request.path}`;
  const headers: Record<string, string> = { ...credential };
  let body: string | undefined;
  if (request.text !== undefined) {
    headers['content-type'] = request.text.contentType;
    body = request.text.content;
  } else if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(ADMIN_REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new CliError(networkMessage(server, error), ExitCodes.failure);
  }
  const text = await response.text();
  let answer: unknown = null;
  try {
    answer = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page, say): report the status below.
  }
  if (!response.ok) {
    throw new CliError(problemMessage(response, answer, text), ExitCodes.failure);
  }
  return answer;
}

function problemMessage(response: Response, body: unknown, text: string): string {
  if (typeof body === 'object' && body !== null) {
    const { message, detail } = body as { message?: unknown; detail?: unknown };
    const said = typeof message === 'string' ? message : typeof detail === 'string' ? detail : null;
    if (said !== null) return oneLine(said);
  }
  const first = oneLine(text).slice(0, 200);
  return `${response.status} ${response.statusText}${first ? `: ${first}` : ''}`;
}

function networkMessage(server: string, error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `no answer from ${server} within ${ADMIN_REQUEST_TIMEOUT_MS / 1000} s`;
  }
  // fetch wraps the socket error (ECONNREFUSED, ENOTFOUND, a TLS failure) as its cause.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const why =
    typeof cause?.message === 'string' && cause.message !== ''
      ? cause.message
      : typeof cause?.code === 'string'
        ? cause.code
        : (error as Error).message;
  return `cannot reach ${server}: ${oneLine(why)}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
