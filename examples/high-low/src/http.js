// @ts-check
import { ArcadeApiError, ArcadeNetworkError, PlayerTokenError } from '@coinop/server-sdk';
import { LoginError } from './login.js';

/** The game server's HTTP plumbing: its errors, its headers, JSON in and out. */

/** Request bodies here are a few dozen bytes. */
const BODY_LIMIT_BYTES = 4096;

/** An answer other than 2xx, with the code and message the client shows. */
export class HttpError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Every JSON answer and the cover: nothing runs, nothing is sniffed. */
export const SAFE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; img-src 'self'",
};

/** The web client: everything from this origin, no inline script. */
export const PAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; " +
    "form-action 'none'",
  'cache-control': 'no-cache',
};

/** @param {string} value */
export function escapeHtml(value) {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * What to answer for an error: the player-token errors are 401 with the SDK's code, the
 * arcade's refusals (no funds, unknown tier, no consent) keep the arcade's status and code, and
 * an arcade that does not answer is 502.
 * @param {unknown} error
 * @returns {{ status: number, code: string, message: string, grantUrl?: string }}
 */
export function problemOf(error) {
  if (error instanceof HttpError) return error;
  if (error instanceof PlayerTokenError) {
    return { status: 401, code: error.code, message: error.message };
  }
  if (error instanceof LoginError) {
    const status =
      error.code === 'access_denied' ? 403 : error.code === 'expired_token' ? 410 : 502;
    return { status, code: error.code, message: error.message };
  }
  if (error instanceof ArcadeApiError && error.status < 500) {
    // A player who has not allowed the game to charge them is sent where they can.
    const grantUrl = error.details?.['grantUrl'];
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      ...(typeof grantUrl === 'string' ? { grantUrl } : {}),
    };
  }
  if (error instanceof ArcadeApiError || error instanceof ArcadeNetworkError) {
    return { status: 502, code: 'arcade_unavailable', message: 'the arcade did not answer; retry' };
  }
  return { status: 500, code: 'internal_error', message: 'internal error' };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 */
export function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...SAFE_HEADERS });
  res.end(JSON.stringify(body));
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<Record<string, unknown>>}
 */
export async function readJson(req) {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > BODY_LIMIT_BYTES) {
      throw new HttpError(413, 'body_too_large', `bodies are at most ${BODY_LIMIT_BYTES} bytes`);
    }
  }
  try {
    const value = text === '' ? {} : JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // Answered below.
  }
  throw new HttpError(400, 'validation_failed', 'the body must be a JSON object');
}
