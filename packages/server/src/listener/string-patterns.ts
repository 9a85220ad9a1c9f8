/**
 * The regular expressions the API's string schemas share, each with the words a refusal says of a
 * value that does not match it ("name must not be blank", not Ajv's `must match pattern "\S"`).
 * A schema spreads one into its options, `Type.String({ ...Patterns.notBlank, maxLength: 100 })`,
 * so a pattern and its words are written once, side by side. The words travel on the schema as
 * `x-coinop-pattern-text`, an annotation Ajv is told of (`fastify.ts`): validation-messages.ts reads
 * it from the failed schema, and the OpenAPI document shows it beside the pattern.
 */

/** The schema annotation holding what a value failing the schema's `pattern` is told. */
export const PATTERN_TEXT_KEY = 'x-coinop-pattern-text';

/** A pattern and its words, to spread into a string schema's options. */
export interface WordedPattern {
  readonly pattern: string;
  readonly [PATTERN_TEXT_KEY]: string;
}

function worded(pattern: string, text: string): WordedPattern {
  return { pattern, [PATTERN_TEXT_KEY]: text };
}

/** Exact HST: digits with at most 8 decimals (1 HST = 10^8 base units). */
const HST_AMOUNT = '\\d+(\\.\\d{1,8})?';

export const Patterns = {
  /** Some character other than white space. */
  notBlank: worded('\\S', 'must not be blank'),
  walletAddress: worded(
    '^0x[0-9a-fA-F]{40}$',
    'must be a wallet address: 0x followed by 40 hex digits',
  ),
  txHash: worded('^0x[0-9a-fA-F]{64}$', 'must be a transaction hash: 0x followed by 64 hex digits'),
  /** A log of a transaction, `<txHash>:<logIndex>`. */
  txLog: worded(
    '^0x[0-9a-fA-F]{64}:[0-9]{1,9}$',
    'must be a transaction hash (0x followed by 64 hex digits), a colon and a log index',
  ),
  /** 32 bytes as lower-case hex: a play's seed, a verifier's hash. */
  hex32Bytes: worded('^[0-9a-f]{64}$', 'must be 64 lower-case hex digits'),
  /** A whole number of any size, as text (base units). */
  digits: worded('^[0-9]+$', 'must be a whole number written in digits'),
  hstAmount: worded(
    `^${HST_AMOUNT}$`,
    'must be an amount of HST in digits, with at most 8 decimals',
  ),
  signedHstAmount: worded(
    `^-?${HST_AMOUNT}$`,
    'must be an amount of HST in digits, with at most 8 decimals, and may start with -',
  ),
  // Query values arrive as text and the API never coerces them: a range is a pattern.
  from1To100: worded('^(100|[1-9][0-9]?)$', 'must be a whole number from 1 to 100'),
  from0To50: worded('^(50|[1-4]?[0-9])$', 'must be a whole number from 0 to 50'),
  from1To50: worded('^(50|[1-4][0-9]|[1-9])$', 'must be a whole number from 1 to 50'),
  from1To90: worded('^(90|[1-8][0-9]|[1-9])$', 'must be a whole number from 1 to 90'),
  from1To500: worded('^(500|[1-4][0-9]{2}|[1-9][0-9]?)$', 'must be a whole number from 1 to 500'),
} as const;
