import { CliError, ExitCodes } from './cli-error.js';

/** A private key is 66 characters; stdin beyond a few lines is not one. */
const STDIN_MAX_CHARS = 1024;

/**
 * Reads a private key from stdin, where commands take keys: a flag would show in the process
 * list. A terminal gives nothing (the command then names what it needs) rather than waiting.
 */
export async function readKeyFromStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.length > STDIN_MAX_CHARS) {
      throw new CliError('stdin is too long for a private key', ExitCodes.usage);
    }
  }
  return text;
}
