/**
 * The rules of a display name a player chooses (docs/concepts/profiles.md). One copy for every
 * side: the server enforces them, the web app explains them as the player types.
 */

/** Shortest and longest name, in characters (code points) after normalising. */
export const DISPLAY_NAME_MIN_CHARS = 3;
export const DISPLAY_NAME_MAX_CHARS = 24;

/** Why a name is refused; `null` from `checkDisplayName` when it is accepted. */
export type DisplayNameProblem =
  | 'too_short'
  | 'too_long'
  | 'characters'
  | 'no_letter_or_digit'
  | 'too_many_marks'
  | 'mixed_scripts'
  | 'looks_like_address'
  | 'looks_like_default';

/** What each problem says to the person typing, in one sentence. */
export const DISPLAY_NAME_PROBLEMS: Readonly<Record<DisplayNameProblem, string>> = {
  too_short: `A name has at least ${DISPLAY_NAME_MIN_CHARS} characters.`,
  too_long: `A name has at most ${DISPLAY_NAME_MAX_CHARS} characters.`,
  characters: 'A name may use letters and digits of any script, spaces, and _ - . only.',
  no_letter_or_digit: 'A name needs at least one letter or digit.',
  too_many_marks: 'A name may put at most two accents or marks on one letter.',
  mixed_scripts: 'A name may not mix Latin letters with Greek or Cyrillic ones.',
  looks_like_address: 'A name may not start with 0x and a hex digit: it would look like a wallet.',
  looks_like_default: 'A name may not look like the name the arcade gives a player without one.',
};

const ALLOWED = /^[\p{L}\p{M}\p{N} _.-]+$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
// Three marks in a row stack into "Zalgo" text that spills over the rows above and below.
const MARK_RUN = /\p{M}{3,}/u;
const LATIN = /\p{Script=Latin}/u;
// Letters that look like Latin ones: mixing them with Latin is how "pаypal" (Cyrillic а) spoofs.
const LOOKALIKE_SCRIPTS = /[\p{Script=Greek}\p{Script=Cyrillic}]/u;
const ADDRESS_LIKE = /^0x[0-9a-f]/i;
const DEFAULT_LIKE = /^player-[0-9a-z]{6}$/i;

/**
 * A name as the arcade stores it: NFKC-normalised (so full-width and ligature forms become their
 * plain letters), trimmed, and with each run of spaces made one space.
 *
 * @example
 * ```ts
 * import { normalizeDisplayName } from '@coinop/protocol';
 * normalizeDisplayName('  Ａｌｉｃｅ   Ｂ '); // "Alice B"
 * ```
 */
export function normalizeDisplayName(raw: string): string {
  return raw.normalize('NFKC').trim().replace(/\s+/gu, ' ');
}

/**
 * The key two names are compared by: the normalised name in lower case. Two players may not hold
 * names with the same key.
 *
 * @example
 * ```ts
 * import { displayNameKey } from '@coinop/protocol';
 * displayNameKey(' ALICE ') === displayNameKey('alice'); // true
 * ```
 */
export function displayNameKey(raw: string): string {
  return normalizeDisplayName(raw).toLowerCase();
}

/**
 * Checks a name against the rules, after normalising it. Answers the first problem found, or
 * null when the name is accepted.
 *
 * @example
 * ```ts
 * import { checkDisplayName } from '@coinop/protocol';
 * checkDisplayName('Ada'); // null
 * checkDisplayName('0xdead'); // "looks_like_address"
 * ```
 */
export function checkDisplayName(raw: string): DisplayNameProblem | null {
  const name = normalizeDisplayName(raw);
  const length = [...name].length;
  if (length < DISPLAY_NAME_MIN_CHARS) return 'too_short';
  if (length > DISPLAY_NAME_MAX_CHARS) return 'too_long';
  if (!ALLOWED.test(name)) return 'characters';
  if (!LETTER_OR_DIGIT.test(name)) return 'no_letter_or_digit';
  if (MARK_RUN.test(name)) return 'too_many_marks';
  if (LATIN.test(name) && LOOKALIKE_SCRIPTS.test(name)) return 'mixed_scripts';
  if (ADDRESS_LIKE.test(name)) return 'looks_like_address';
  if (DEFAULT_LIKE.test(name)) return 'looks_like_default';
  return null;
}
