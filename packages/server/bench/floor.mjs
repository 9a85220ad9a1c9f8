// What a play+score pair costs a bare API on this machine at a given pair rate: `floor-server.mjs`
// under the loop's load generator, its wait tuned until its pairs/s matches the rate. On this VM
// the CPU a process spends per request depends on how often it sleeps and wakes, that is on the
// rate: a server that does nothing but wait on Postgres costs twice as much per pair at 1,000
// pairs/s as at 5,000. Reading coinop's figure against the floor at its own rate tells its work
// from the machine's price of taking requests (docs/benchmarks.md, issue 32 round 2).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cpuSnapshot, voluntarySwitches } from './cpu.mjs';
import { measurePlayScore } from './load.mjs';

const SERVER = fileURLToPath(new URL('./floor-server.mjs', import.meta.url));
/** Tries of the wait, each 2 s, before measuring. */
const TUNING_TRIES = 5;

/**
 * Measures the floor at `pairsPerSecond` with `connections`, on Postgres at `databaseUrl`
 * (`postmasterPid` for its CPU). Resolves with the floor's own rate, its wait and CPU per pair.
 */
export async function measureFloor({
  databaseUrl,
  postmasterPid,
  connections,
  pairsPerSecond,
  duration,
}) {
  // The rate falls as the wait grows, about in proportion once the wait dominates: each try
  // scales the wait by how far its rate missed.
  let waitMs = (connections / pairsPerSecond / 2) * 1000;
  for (let i = 0; i < TUNING_TRIES; i++) {
    const r = await atWait(waitMs, connections, 2, null, databaseUrl);
    waitMs = Math.min(1000, Math.max(0.05, waitMs * (r.pairsPerSecond / pairsPerSecond)));
  }
  return atWait(waitMs, connections, duration, postmasterPid, databaseUrl);
}

async function atWait(waitMs, connections, duration, postmasterPid, databaseUrl) {
  const server = spawn(process.execPath, [SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: databaseUrl, FLOOR_WAIT_MS: String(waitMs) },
  });
  try {
    const url = await new Promise((resolve, reject) => {
      createInterface({ input: server.stdout }).on('line', (line) => {
        if (line.startsWith('listening ')) resolve(line.slice('listening '.length));
      });
      server.on('exit', (code) => reject(new Error(`floor server exited ${code}`)));
    });
    const load = {
      url,
      arcadeId: 'floor',
      games: [{ gameId: 'floor', token: 'f'.repeat(180), leaderboardId: randomUUID() }],
      playerIds: [randomUUID()],
      connections,
    };
    await measurePlayScore({ ...load, duration: 1 });
    const pids = { serverPid: server.pid, postmasterPid };
    const before = cpuSnapshot(pids);
    const wakeupsBefore = voluntarySwitches(server.pid);
    const r = await measurePlayScore({ ...load, duration });
    const after = cpuSnapshot(pids);
    const wakeups = voluntarySwitches(server.pid) - wakeupsBefore;
    const perPair = (ticks) => Math.round((ticks * 10_000) / Math.max(1, r.pairs));
    return {
      pairsPerSecond: Math.round(r.pairsPerSecond),
      waitMs: Math.round(waitMs * 100) / 100,
      nonOk: r.non2xx,
      wakeupsPerPair: Math.round((wakeups / Math.max(1, r.pairs)) * 100) / 100,
      cpuUsPerPair:
        before && after
          ? {
              serve: perPair(after.server - before.server),
              loadgen: perPair(after.loadgen - before.loadgen),
            }
          : null,
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.on('close', r));
  }
}
