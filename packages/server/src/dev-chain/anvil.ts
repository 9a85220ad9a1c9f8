import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * Anvil, Foundry's local chain, from the npm package `@foundry-rs/anvil`: finding its binary and
 * running it as a child process whose chain is kept in a state file.
 */

/** Anvil's well-known accounts come from Foundry's public test mnemonic, its default. */
export const ANVIL_CHAIN_ID = 31337;
const READY_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5_000;

/** Anvil is missing or cannot run: a setting to fix, said in one line. */
export class AnvilError extends Error {
  override readonly name = 'AnvilError';
}

/** The npm package that brings Anvil, an optional peer of `coinop`: only `--dev-chain` runs it. */
export const ANVIL_PACKAGE = '@foundry-rs/anvil';

/**
 * The command that adds Anvil beside an installed coinop, at the version range coinop's
 * package.json asks for (a production install leaves it out: docs/operating/dev-chain.md).
 */
export function anvilInstallCommand(): string {
  const require = createRequire(import.meta.url);
  const manifest = require('../../package.json') as { peerDependencies?: Record<string, string> };
  const range = manifest.peerDependencies?.[ANVIL_PACKAGE];
  return `npm install ${ANVIL_PACKAGE}${range === undefined ? '' : `@${range}`}`;
}

/**
 * The path of the Anvil binary the npm package `@foundry-rs/anvil` installed for this platform
 * (its optional dependency `@foundry-rs/anvil-<os>-<arch>`). Throws an AnvilError saying what to
 * install when it is missing.
 */
export function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  let wrapperPackage: string;
  try {
    wrapperPackage = require.resolve(`${ANVIL_PACKAGE}/package.json`);
  } catch (cause) {
    throw new AnvilError(
      `the dev chain needs Anvil (the npm package ${ANVIL_PACKAGE}), which an install of ` +
        `coinop leaves out: add it with \`${anvilInstallCommand()}\` beside coinop (with -g ` +
        'for a global coinop) (docs/operating/dev-chain.md)',
      { cause },
    );
  }
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string] ?? process.arch;
  const platformPackage = `${ANVIL_PACKAGE}-${process.platform}-${arch}`;
  let platformDir: string;
  try {
    platformDir = dirname(createRequire(wrapperPackage).resolve(`${platformPackage}/package.json`));
  } catch (cause) {
    throw new AnvilError(
      `no Anvil binary for ${process.platform}-${process.arch}: ${platformPackage} is not ` +
        `installed (npm installs it with ${ANVIL_PACKAGE} unless optional dependencies are off)`,
      { cause },
    );
  }
  const binary = join(platformDir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!existsSync(binary)) throw new AnvilError(`the Anvil package has no binary at ${binary}`);
  return binary;
}

export interface PersistentAnvilOptions {
  readonly binary?: string;
  readonly host: string;
  readonly port: number;
  /** Anvil loads its chain from this file if it exists, and writes it there. */
  readonly stateFile: string;
  /** How often the chain is written to `stateFile` while running (and always on exit). */
  readonly stateIntervalSeconds: number;
  /** Holds the running Anvil's pid, so a start after the parent was killed can stop it. */
  readonly pidFile: string;
}

export interface RunningAnvil {
  readonly rpcUrl: string;
  readonly chainId: number;
  /** Stops Anvil, which writes its chain to the state file first. */
  stop(): Promise<void>;
}

/**
 * Starts Anvil on `host:port` with its chain in `stateFile`, and waits until it answers
 * `eth_chainId`. Automine: each transaction is mined in its own block at once. An Anvil left
 * running on the same state file by a parent that was killed is stopped first (it writes its
 * state on the way out, so nothing it mined is lost).
 */
export async function startPersistentAnvil(options: PersistentAnvilOptions): Promise<RunningAnvil> {
  const binary = options.binary ?? anvilBinary();
  if (!existsSync(binary)) throw new AnvilError(`no Anvil binary at ${binary}`);
  await stopOrphan(options.pidFile, options.stateFile);
  // Checked first, so that another chain on the port never passes for this one.
  if (!(await isPortFree(options.host, options.port))) throw new AnvilError(portInUse(options));
  const child = spawn(
    binary,
    [
      '--host',
      options.host,
      '--port',
      String(options.port),
      '--state',
      options.stateFile,
      '--state-interval',
      String(options.stateIntervalSeconds),
      '--silent',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const rpcUrl = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
  // However this process ends short of SIGKILL, Anvil ends with it (and writes its state).
  const stopWithProcess = () => child.kill('SIGTERM');
  process.once('exit', stopWithProcess);
  const stop = async () => {
    process.removeListener('exit', stopWithProcess);
    await stopProcess(child);
  };
  try {
    const chainId = await waitUntilReady(child, rpcUrl, options);
    if (child.pid !== undefined) await writeFile(options.pidFile, `${child.pid}\n`);
    return {
      rpcUrl,
      chainId,
      stop: async () => {
        await stop();
        await rm(options.pidFile, { force: true });
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilReady(
  child: ChildProcess,
  rpcUrl: string,
  options: PersistentAnvilOptions,
): Promise<number> {
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  let spawnError: Error | null = null;
  child.once('error', (error) => (spawnError = error));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (spawnError) throw new AnvilError(`anvil did not start: ${(spawnError as Error).message}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new AnvilError(exitReason(stderr, child, options));
    }
    const chainId = await chainIdAt(rpcUrl);
    if (chainId !== null) return chainId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new AnvilError(`anvil did not answer at ${rpcUrl} within ${READY_TIMEOUT_MS} ms`);
}

function exitReason(stderr: string, child: ChildProcess, options: PersistentAnvilOptions): string {
  const said = stderr.trim().split('\n').slice(-3).join(' ');
  if (/address already in use|os error 98/i.test(stderr)) return portInUse(options);
  if (/state/i.test(stderr) && existsSync(options.stateFile)) {
    return (
      `anvil could not load the dev chain's state from ${options.stateFile} (${said}); ` +
      'see docs/operating/dev-chain.md to reset the dev chain and the ledger together'
    );
  }
  return `anvil exited (${child.exitCode ?? child.signalCode}): ${said}`;
}

function portInUse(options: PersistentAnvilOptions): string {
  return (
    `port ${options.port} on ${options.host} is in use, so the dev chain cannot start there: ` +
    'stop what uses it, or pick another port with --dev-chain-port'
  );
}

function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

async function chainIdAt(rpcUrl: string): Promise<number | null> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    const body = (await response.json()) as { result?: string };
    return body.result ? Number(BigInt(body.result)) : null;
  } catch {
    return null; // Not listening yet.
  }
}

/**
 * Stops the Anvil a killed parent left running on this state file, if it still runs: the pid in
 * the file must be an Anvil process started with that state file (Linux's /proc tells), so a pid
 * reused by another program is never signalled.
 */
async function stopOrphan(pidFile: string, stateFile: string): Promise<void> {
  let pid: number;
  try {
    pid = Number((await readFile(pidFile, 'utf8')).trim());
  } catch {
    return;
  }
  if (Number.isInteger(pid) && pid > 0) {
    let args: string[] = [];
    try {
      args = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    } catch {
      // Gone, or not Linux: nothing this can safely stop.
    }
    const isOurs = /anvil(\.exe)?$/.test(args[0] ?? '') && args.includes(stateFile);
    if (isOurs) {
      process.kill(pid, 'SIGTERM');
      const deadline = Date.now() + STOP_TIMEOUT_MS;
      while (Date.now() < deadline && existsSync(`/proc/${pid}`)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
  await rm(pidFile, { force: true });
}

/** Stops an Anvil child: SIGTERM (it saves its state), SIGKILL if it has not exited in time. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
