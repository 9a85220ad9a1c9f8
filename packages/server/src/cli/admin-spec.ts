import type { AdminRequest } from './admin-client.js';

/** What every `coinop admin …` command is: a spec turned into a commander command (admin.ts). */

export type Values = Record<string, string | undefined>;

export interface AdminCommand {
  /** Noun and verb, e.g. ['hst', 'mint']. */
  readonly words: readonly [string, string];
  readonly description: string;
  /** A positional argument, given to `request` under its name. */
  readonly argument?: { readonly name: string; readonly description: string };
  /** Commander flag specs; required ones are marked. */
  readonly options: readonly { flags: string; description: string; required?: boolean }[];
  readonly request: (values: Values) => AdminRequest;
  /**
   * What in the answer makes the command fail: a message for stderr (exit 1, after the answer is
   * printed), or null. For scripts and monitoring that go by the exit code.
   */
  readonly failsWhen?: (answer: unknown) => string | null;
  /** Warnings for stderr (`coinop: <note>` each, after the answer) that do not fail the command. */
  readonly notes?: (answer: unknown) => readonly string[];
}

export const id = (value: string | undefined) => encodeURIComponent(value ?? '');

/**
 * A number argument goes out as a JSON number when it looks like one, else as the text, so the
 * server's validation names the field either way.
 */
export const numberOrText = (value: string | undefined) =>
  value !== undefined && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;

/** Accounts are named by id or by wallet: the help says so once, the same everywhere. */
export const ACCOUNT_FLAG = '--account <id|wallet>';
export const ACCOUNT_HELP =
  'account id, a player, developer or arcade id, `arcade` (this arcade), or the wallet of a ' +
  'player or developer';

/** `?limit=…&before=…` from the listing flags given, or nothing. */
export function pageQuery(v: Values): string {
  const query = new URLSearchParams();
  for (const name of ['limit', 'before']) {
    const value = v[name];
    if (value !== undefined) query.set(name, value);
  }
  return query.size > 0 ? `?${query}` : '';
}

/** The listing flags of a paged list of `what`. */
export const PAGE_OPTIONS = (what: string) => [
  { flags: '--limit <n>', description: `how many ${what}, newest first: 1 to 100 (default 20)` },
  { flags: '--before <id>', description: 'the `next` of the page before, for the page after it' },
];
