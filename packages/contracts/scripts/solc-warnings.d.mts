/** One entry of solc's standard-JSON output `errors`. */
export interface SolcProblem {
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly formattedMessage?: string;
  readonly sourceLocation?: { readonly file: string };
}

export const KNOWN_HARMLESS: readonly { readonly file: string; readonly message: RegExp }[];

export function solcMessages(problems: readonly SolcProblem[]): {
  errors: string[];
  warnings: string[];
};
