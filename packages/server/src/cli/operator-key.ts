import { Option, type Command } from 'commander';
import type { SecretBox } from '../credentials/secret-box.js';
import { CliError, ExitCodes } from './cli-error.js';
import { readKeyFromStdin } from './stdin.js';

/**
 * `coinop admin chain operator-key generate|import --out FILE`: writes the operator's signing key
 * sealed with the secrets key (the one `coinop serve` uses: --secrets-key-file,
 * COINOP_SECRETS_KEY, or the data directory's), mode 0600, for --chain-operator-key-file. Local
 * commands: no server is called. They print the key's address, never the key. The key and
 * config modules load only when a command runs, so other commands start without viem.
 */

export function addOperatorKeyCommands(chain: Command): void {
  const group = chain
    .command('operator-key')
    .description("the operator's signing key for withdrawals, sealed with the secrets key");
  const withOptions = (command: Command) =>
    command
      .requiredOption('--out <file>', 'the key file to write (refused if it exists)')
      .addOption(
        new Option('--secrets-key-file <file>', 'the secrets key coinop serve uses').env(
          'COINOP_SECRETS_KEY_FILE',
        ),
      )
      .addOption(
        new Option(
          '--data-dir <dir>',
          'where serve keeps its secrets-key when no file is given',
        ).env('COINOP_DATA_DIR'),
      );

  withOptions(
    group
      .command('generate')
      .description('generate a new key; prints its address, to grant it OPERATOR_ROLE'),
  ).action(async (options: Options) => {
    const box = await boxOf(options);
    const { generateOperatorKeyFile } = await import('../chain/operator-key.js');
    const address = await sealed(() => generateOperatorKeyFile(options.out, box));
    print(options.out, address);
  });

  withOptions(
    group
      .command('import')
      .description(
        'seal an existing key read from stdin (0x and 64 hex digits); prints its address',
      ),
  ).action(async (options: Options) => {
    const box = await boxOf(options);
    const text = await readKeyFromStdin();
    const { writeOperatorKeyFile } = await import('../chain/operator-key.js');
    const address = await sealed(() => writeOperatorKeyFile(options.out, box, text));
    print(options.out, address);
  });
}

interface Options {
  out: string;
  secretsKeyFile?: string;
  dataDir?: string;
}

async function boxOf(options: Options): Promise<SecretBox> {
  const { loadConfig } = await import('../config.js');
  const { loadSecretsKey, SecretsKeyError } = await import('../credentials/secrets-key.js');
  const config = loadConfig({ secretsKeyFile: options.secretsKeyFile, dataDir: options.dataDir });
  try {
    // Never a new secrets key: the file would be sealed under a key no server has.
    return (await loadSecretsKey(config, { generate: false })).box;
  } catch (error) {
    if (error instanceof SecretsKeyError) throw new CliError(error.message, ExitCodes.usage);
    throw error;
  }
}

async function sealed(write: () => Promise<`0x${string}`>): Promise<`0x${string}`> {
  try {
    return await write();
  } catch (error) {
    const { OperatorKeyError } = await import('../chain/operator-key.js');
    if (error instanceof OperatorKeyError) throw new CliError(error.message, ExitCodes.failure);
    throw error;
  }
}

function print(file: string, address: string): void {
  process.stdout.write(`${JSON.stringify({ file, address }, null, 2)}\n`);
}
