// A bench server child process (server.mjs) driven over IPC, for the diagnosis drivers.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Forks server.mjs; `call(type, extra)` sends one message and resolves with its reply. */
export function forkTarget(execArgv = []) {
  const child = fork(join(here, 'server.mjs'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv,
  });
  const waiting = new Map();
  let seq = 0;
  child.on('message', (m) => {
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.ok) w.resolve(m.reply);
    else w.reject(new Error(m.error));
  });
  const exited = once(child, 'exit');
  child.on('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`bench server exited with ${code}`));
    waiting.clear();
  });
  const call = (type, extra = {}) =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      waiting.set(id, { resolve, reject });
      child.send({ id, type, ...extra });
    });
  const close = async () => {
    if (child.exitCode !== null) return;
    await call('close').catch(() => undefined);
    await exited;
  };
  return { pid: child.pid, call, close };
}

/** Write tokens for each seeded game's first tier, from the API at `url`. */
export async function writeTokens(url, games) {
  const out = [];
  for (const g of games) {
    const res = await fetch(`${url}/oauth/writetoken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: g.clientId, client_secret: g.clientSecret }),
    });
    const token = (await res.json()).access_token;
    out.push({ gameId: g.gameId, leaderboardId: g.leaderboardIds[0], token });
  }
  return out;
}

/** Server args for the API processes, as run.mjs takes them. */
export const serverNodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
