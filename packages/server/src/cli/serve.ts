import type { Command } from 'commander';
import type { ConfigInput } from '../config.js';
import { CliError, ExitCodes } from './cli-error.js';
import {
  addConfigFlags,
  ALL_CONFIG_FLAGS,
  loadCliConfig,
  type OptionValues,
} from './config-flags.js';

/**
 * `coinop serve`: every config flag (config-flags.ts), then start-up. The server itself is
 * imported only when this command runs, so `coinop admin` never loads Fastify or the database.
 */

export function addServeCommand(program: Command): void {
  const serve = program
    .command('serve')
    .description('start the arcade API, the player sign-in service and the web app');
  const configInput = addConfigFlags(serve, ALL_CONFIG_FLAGS);
  serve.action(async (values: OptionValues) => {
    await runServe(configInput(values));
  });
}

async function runServe(flags: ConfigInput): Promise<void> {
  const config = await loadCliConfig(flags);
  const { clusterWorker, runClusterPrimary } = await import('../cluster.js');
  const worker = clusterWorker();
  if (config.workers > 1 && worker === null) {
    await runClusterPrimary(config, (line) => process.stderr.write(`${line}\n`));
    return;
  }
  const { startServer } = await import('../main.js');
  const FLAG_ENV_OPERATOR_KEY = '--chain-operator-key-file (COINOP_CHAIN_OPERATOR_KEY_FILE)';
  const { SecretsKeyError } = await import('../credentials/secrets-key.js');
  const { OperatorKeyError } = await import('../chain/operator-key.js');
  const { DevChainError } = await import('../dev-chain/dev-chain.js');
  const { AnvilError } = await import('../dev-chain/anvil.js');
  const { MigrationError } = await import('../store/migrate.js');
  const { AdminTokenError } = await import('../admin-token.js');
  let server;
  try {
    // In a cluster only the first worker seeds the demo arcade; the others join it.
    server = await startServer(config, {
      seedDemo: worker?.seeds ?? true,
      clusterWorker: worker !== null,
      banner: worker?.seeds ?? true,
    });
  } catch (error) {
    // The operator's key does not fit the database, or the admin token file's token is too
    // short: a setting to fix, like a bad flag.
    if (error instanceof SecretsKeyError || error instanceof AdminTokenError) {
      throw new CliError(error.message, ExitCodes.usage);
    }
    if (error instanceof OperatorKeyError) {
      const flag = config.devChain ? `${config.devChain.dir}/operator.key` : FLAG_ENV_OPERATOR_KEY;
      throw new CliError(`${flag}: ${error.message}`, ExitCodes.usage);
    }
    // The schema is not this code's (newer, changed, or not migrated with --no-migrate).
    if (error instanceof MigrationError) throw new CliError(error.message, ExitCodes.failure);
    // The dev chain cannot start, or disagrees with the ledger: the message says what to do.
    if (error instanceof DevChainError || error instanceof AnvilError) {
      throw new CliError(`--dev-chain: ${error.message}`, ExitCodes.failure);
    }
    throw error;
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second signal while draining: the operator wants out now.
      process.exit(ExitCodes.failure);
    }
    stopping = true;
    process.stderr.write(`coinop: ${signal}: closing listeners, then the database\n`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`coinop: shutdown failed: ${(error as Error).message}\n`);
        process.exit(ExitCodes.failure);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  worker?.ready();
}
