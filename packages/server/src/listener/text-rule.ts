import type { FastifyInstance } from 'fastify';
import { CoinopError } from '@coinop/core';

/**
 * One rule for every string a client sends, on every listener: no NUL character and no lone
 * UTF-16 surrogate. Neither can be stored (Postgres text refuses NUL; a lone surrogate is not
 * Unicode) and neither belongs in any field coinop takes, so they are refused at the edge with
 * `400 validation_failed` naming the field, before any route's own hooks or handler run.
 * Path parameters, the query and header values are checked on request; a parsed JSON body
 * (keys and values, however deep) before validation.
 */
export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    checkTree(request.params, 'params', []);
    checkTree(request.query, 'query', []);
    checkTree(request.headers, 'headers', []);
  });
  app.addHook('preValidation', async (request) => {
    checkTree(request.body, 'body', []);
  });
}

/** Nesting deeper than this is refused too: no request coinop takes comes close. */
const MAX_DEPTH = 32;

function checkTree(value: unknown, where: string, path: readonly string[]): void {
  if (typeof value === 'string') {
    if (!isStorable(value)) throw unstorable(where, path);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (path.length > MAX_DEPTH) {
    throw new CoinopError('validation_failed', `${where} is nested more than ${MAX_DEPTH} deep`, {
      details: { field: path.join('.'), in: where },
    });
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => checkTree(item, where, [...path, String(i)]));
    return;
  }
  // Only parsed data: a body the web listener forwards as a stream, or raw bytes, is not text.
  if (isStream(value) || ArrayBuffer.isView(value)) return;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (!isStorable(key)) throw unstorable(where, [...path, safeName(key)]);
    checkTree(item, where, [...path, key]);
  }
}

/** A lone surrogate is a code point of its own, general category Cs; a proper pair is not. */
const LONE_SURROGATE = /\p{Cs}/u;

function isStream(value: object): boolean {
  return typeof (value as { pipe?: unknown }).pipe === 'function';
}

function isStorable(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** A key that itself holds the bad character is named with it replaced, so the answer is clean. */
function safeName(key: string): string {
  return key.replaceAll('\u0000', '\\u0000').replace(/\p{Cs}/gu, '\uFFFD');
}

function unstorable(where: string, path: readonly string[]): CoinopError {
  const field = path.length === 0 ? where : path.join('.');
  return new CoinopError(
    'validation_failed',
    `${field} contains a NUL character or a lone surrogate, which no field accepts`,
    { details: { field, in: where } },
  );
}
