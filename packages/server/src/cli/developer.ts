import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { callServer, DEFAULT_SERVER } from './admin-client.js';
import { CliError, ExitCodes } from './cli-error.js';

/**
 * `coinop developer verifier …`: a game developer's commands, with their API key, against a
 * running arcade (docs/reference/verifier.md). The server SDK signs in as a game server, which
 * may submit scores but never change what judges them: a verifier is the developer's.
 */

interface Common {
  readonly server?: string;
  readonly apiKeyFile?: string;
  readonly game: string;
}

interface UploadAnswer {
  version: number;
  sha256: string;
  sizeBytes: number;
}

interface CheckAnswer {
  ok: boolean;
  reason: string | null;
  detail: string | null;
  computed: number | null;
  version: number | null;
  seed: string;
  durationMs: number;
}

export function addDeveloperCommands(program: Command): void {
  const verifier = program
    .command('developer')
    .description("a game developer's commands, with the developer's API key")
    .command('verifier')
    .description("upload and try a game's replay verifier (docs/reference/verifier.md)");

  withCommon(verifier.command('upload'))
    .description('upload FILE as the next version of the game’s verifier, current at once')
    .argument('<file>', 'the verifier: one ES module exporting function verify')
    .action(async (file: string, options: Common) => {
      const source = await readText(file);
      const answer = (await callServer(server(options), await credential(options), {
        method: 'PUT',
        path: `/developer/games/${encodeURIComponent(options.game)}/verifier`,
        text: { contentType: 'text/javascript', content: source },
      })) as UploadAnswer;
      process.stdout.write(
        `${basename(file)} is version ${answer.version} of the game's verifier ` +
          `(${answer.sizeBytes} bytes, sha256 ${answer.sha256})\n`,
      );
    });

  withCommon(verifier.command('check'))
    .description('run the game’s verifier (or --module) on a replay, as a score would be')
    .requiredOption('--replay <file>', 'the replay, as the game submits it')
    .requiredOption('--score <n>', 'the score the game claims')
    .option('--seed <hex>', "the play's seed, 64 hex digits (default: a random one)")
    .option('--module <file>', 'try this module instead of the uploaded one (not stored)')
    .action(async (options: Common & CheckOptions) => {
      const answer = (await callServer(server(options), await credential(options), {
        method: 'POST',
        path: `/developer/games/${encodeURIComponent(options.game)}/verifier/check`,
        body: {
          replay: await readText(options.replay),
          score: Number(options.score),
          ...(options.seed === undefined ? {} : { seed: options.seed }),
          ...(options.module === undefined ? {} : { source: await readText(options.module) }),
        },
      })) as CheckAnswer;
      const ran = answer.version === null ? 'the given module' : `version ${answer.version}`;
      const facts = `${ran}, seed ${answer.seed}, ${answer.durationMs} ms`;
      if (answer.ok) {
        process.stdout.write(`accepted: the replay earns ${answer.computed} (${facts})\n`);
        return;
      }
      process.stdout.write(`refused (${answer.reason}): ${answer.detail} (${facts})\n`);
      process.exitCode = ExitCodes.failure;
    });
}

interface CheckOptions {
  readonly replay: string;
  readonly score: string;
  readonly seed?: string;
  readonly module?: string;
}

function withCommon(command: Command): Command {
  return command
    .requiredOption('--game <id>', 'the game')
    .addOption(
      new Option('--server <url>', `arcade API URL (default ${DEFAULT_SERVER})`).env(
        'COINOP_SERVER',
      ),
    )
    .addOption(
      new Option(
        '--api-key-file <file>',
        "a file holding the developer's API key (or the key in COINOP_API_KEY)",
      ).env('COINOP_API_KEY_FILE'),
    );
}

function server(options: Common): string {
  const url = (options.server ?? DEFAULT_SERVER).replace(/\/+$/, '');
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new CliError(`--server must be an http(s) URL, got ${url}`, ExitCodes.usage);
  }
  return url;
}

/** The API key from its file or the environment: never a flag, which `ps` would show. */
async function credential(options: Common): Promise<Record<string, string>> {
  const key =
    options.apiKeyFile === undefined
      ? (process.env['COINOP_API_KEY'] ?? '')
      : (await readText(options.apiKeyFile)).trim();
  if (key === '') {
    throw new CliError(
      "no API key: give --api-key-file (COINOP_API_KEY_FILE) or COINOP_API_KEY; create one in the developer portal's API keys",
      ExitCodes.usage,
    );
  }
  return { 'api-key': key };
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CliError(`cannot read ${file}: ${code}`, ExitCodes.usage);
  }
}
