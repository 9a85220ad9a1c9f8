import { spawn, spawnSync } from 'node:child_process';
import { stopProcess } from 'coinop/dev-chain/anvil.js';
import { freePort } from './net.js';

/**
 * Debian's `redis-server`. On a developer's machine without it the Redis tests skip, saying so;
 * in CI (`CI` set, as .ci/run does, which installs it) a missing server fails them instead.
 */
export const REDIS_SERVER = 'redis-server';
export const NO_REDIS_REASON = `${REDIS_SERVER} not found: Redis tests skipped (apt-get install -y redis-server)`;
export const hasRedis = isRedisServerFound(process.env['CI']);

/** Whether `redis-server` runs; throws when it does not and `ci` is set. */
export function isRedisServerFound(ci: string | undefined): boolean {
  const found = spawnSync(REDIS_SERVER, ['--version'], { stdio: 'ignore' }).status === 0;
  if (!found && ci) throw new Error(`${REDIS_SERVER} not found, and CI must run the Redis tests`);
  return found;
}

export interface RedisNode {
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  /** Stops the server; its data is gone (nothing is saved). */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;

/**
 * Starts a fresh `redis-server` on a free port of 127.0.0.1, keeping nothing on disk, and waits
 * until it accepts connections. `port` starts it on a given one (to start a stopped one again).
 */
export async function startRedis(port?: number): Promise<RedisNode> {
  const chosen = port ?? (await freePort());
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start within ${READY_TIMEOUT_MS} ms: ${output}`));
    }, READY_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code} before it was ready: ${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    stop: () => stopProcess(child),
  };
}
