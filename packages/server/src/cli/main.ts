#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { addAdminCommands } from './admin.js';
import { CliError, ExitCodes } from './cli-error.js';
import { addDbCommands } from './db.js';
import { addDemoCommand } from './demo.js';
import { addDeveloperCommands } from './developer.js';
import { addDevChainCommands } from './dev-chain.js';
import { addMigrateCommand } from './migrate.js';
import { addServeCommand } from './serve.js';

/**
 * The `coinop` command: `serve` starts the arcade, `admin …` talks to a running one, and
 * `developer …` is a game developer's, with their API key.
 */

const program = new Command('coinop')
  .description('coinop: a self-hostable pay-to-play arcade')
  .version(packageVersion())
  .exitOverride()
  .configureOutput({
    // Every failure is one line on stderr, prefixed like the failures the commands report.
    outputError: (text, write) =>
      write(
        `coinop: ${text
          .replace(/^error: /, '')
          .replace(/\s*\n\s*/g, ' ')
          .trim()}\n`,
      ),
  });
addServeCommand(program);
addMigrateCommand(program);
addDbCommands(program);
addAdminCommands(program);
addDeveloperCommands(program);
addDemoCommand(program);
addDevChainCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeFor(error);
}

function exitCodeFor(error: unknown): number {
  // Commander has already printed its own message (or the help) by the time it throws.
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : ExitCodes.usage;
  if (error instanceof CliError) {
    process.stderr.write(`coinop: ${error.message}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`coinop: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  return ExitCodes.failure;
}

function packageVersion(): string {
  const path = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}
