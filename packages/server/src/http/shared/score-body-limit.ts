import type { Config } from '../../config.js';

/**
 * The body limit of a score route: the usual limit plus room for the longest replay the arcade
 * takes (`--replay-max-bytes`), written as JSON text, where an escaped character may take up to
 * six bytes (`\u0000`). The replay's own limit, in UTF-8 bytes, is checked after parsing.
 */
export function scoreBodyLimit(config: Pick<Config, 'bodyLimitBytes' | 'verifier'>): number {
  return config.bodyLimitBytes + config.verifier.replayMaxBytes * JSON_ESCAPE_MAX_BYTES;
}

/** `\u001f`: the longest JSON escape of one character. */
const JSON_ESCAPE_MAX_BYTES = 6;
