/** Exit codes of `coinop`: 1 when the server or network says no, 2 when the command line is wrong. */
export const ExitCodes = { failure: 1, usage: 2 } as const;

/** A failure the CLI reports as one `coinop: <message>` line on stderr, then exits with `exitCode`. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: number;

  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}
