import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled CLI, as `npx coinop` runs it; `npm test` builds it first (via `npm run check`). */
export const CLI_PATH = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without any COINOP_* setting of the machine running the tests. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('COINOP_') && key !== 'DATABASE_URL') env[key] = value;
  }
  return { ...env, ...extra };
}

/**
 * Runs `node dist/cli/main.js …args` to the end and collects its output; `input` is its stdin.
 * With `timeoutMs`, a command still running then is killed (its `code` is null); `cwd` is its
 * working directory (this process's by default).
 */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = cleanEnv(),
  input?: string,
  timeoutMs?: number,
  cwd?: string,
): Promise<CliRun> {
  if (!existsSync(CLI_PATH)) {
    return Promise.reject(new Error(`${CLI_PATH} is missing: run npm run build first`));
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { env, stdio: 'pipe', cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer =
      timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (input !== undefined) child.stdin.end(input);
  });
}

/** A `coinop serve` child process, its log messages, and the URL it said it listens on. */
export interface ServeChild {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Every listener's URL by name (`api`, `auth`, `web`), as the start banner gives them. */
  urls: Record<string, string>;
  messages: string[];
  /** Everything written to standard output so far, as written. */
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * The demo game's client as `serve --demo` saved it in the data directory (its secret is never
 * logged), with the file's mode.
 */
export async function demoClient(
  dataDir: string,
): Promise<{ clientId: string; clientSecret: string; gameId: string; mode: number }> {
  const file = join(dataDir, 'demo-client.json');
  const saved = JSON.parse(await readFile(file, 'utf8')) as {
    clientId: string;
    clientSecret: string;
    gameId: string;
  };
  return { ...saved, mode: (await stat(file)).mode & 0o777 };
}

/** The API's URL in a start banner's JSON log line (`coinop is ready`), if the line is one. */
export function bannerApiUrl(record: {
  msg: string;
  urls?: Record<string, string>;
}): string | null {
  return record.msg.startsWith('coinop is ready') ? (record.urls?.['api'] ?? null) : null;
}

/** Starts `coinop serve …args` and resolves once its start banner names its API URL. */
export function serve(args: string[], env: NodeJS.ProcessEnv = cleanEnv()): Promise<ServeChild> {
  // A free web port unless the test names one (a later flag wins), so runs never contend for 8082.
  const child = spawn(process.execPath, [CLI_PATH, 'serve', '--web-port', '0', ...args], {
    env,
    stdio: 'pipe',
  });
  const messages: string[] = [];
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      stdout += `${line}\n`;
      const record = JSON.parse(line) as { msg: string; urls?: Record<string, string> };
      messages.push(record.msg);
      const url = bannerApiUrl(record);
      if (url) {
        const urls = record.urls ?? {};
        resolve({ child, url, urls, messages, stdout: () => stdout, stderr: () => stderr, exited });
      }
    });
    void exited.then((code) =>
      reject(new Error(`serve exited ${code} before listening: ${stderr}`)),
    );
  });
}
