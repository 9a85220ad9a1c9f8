// Where the machine's CPU went during a measurement: the API process, Postgres, the load
// generator (this process), and everything else (other users of the shared machine). Linux only;
// elsewhere every figure is null.
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';

const CORES = cpus().length;

/** A reading of the machine and of the given process groups. */
export function cpuSnapshot({
  serverPid,
  postmasterPid,
  serverWorkers = false,
  extraServerPids = [],
}) {
  // With workers (`coinop serve --workers`), a server is the primary and its children; other
  // server processes on the same database count as the server too.
  const serverTicks = (pid) => (serverWorkers ? sum(treeTicks(pid)) : processTicks(pid));
  try {
    return {
      machine: machineTicks(),
      server: [serverPid, ...extraServerPids]
        .filter(Boolean)
        .reduce((total, pid) => total + serverTicks(pid), 0),
      // Per backend: a pool closes idle connections, and a vanished backend must not count
      // as negative time.
      postgres: postmasterPid ? treeTicks(postmasterPid) : new Map(),
      loadgen: processTicks(process.pid),
    };
  } catch {
    return null;
  }
}

/** Each group's share between two readings, in percent of one core (the machine has CORES). */
export function cpuShares(before, after) {
  if (!before || !after) return null;
  const total = after.machine.total - before.machine.total;
  if (total <= 0) return null;
  const pct = (ticks) => Math.round((ticks / total) * CORES * 100);
  const busy = after.machine.busy - before.machine.busy;
  const server = after.server - before.server;
  let postgres = 0;
  for (const [pid, ticks] of after.postgres) postgres += ticks - (before.postgres.get(pid) ?? 0);
  const loadgen = after.loadgen - before.loadgen;
  return {
    cores: CORES,
    busy: pct(busy),
    server: pct(server),
    postgres: pct(postgres),
    loadgen: pct(loadgen),
    other: Math.max(0, pct(busy - server - postgres - loadgen)),
  };
}
function sum(ticksByPid) {
  let total = 0;
  for (const ticks of ticksByPid.values()) total += ticks;
  return total;
}

function machineTicks() {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, ...fields] = line.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return { total, busy: total - idle };
}

function statFields(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may itself hold spaces: state is [0], ppid [1].
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

function processTicks(pid) {
  try {
    const f = statFields(pid);
    return Number(f[11]) + Number(f[12]); // utime + stime
  } catch {
    return 0; // The process has exited.
  }
}

/** A postmaster and its backends (its direct children): ticks by pid. */
function treeTicks(rootPid) {
  const ticks = new Map([[rootPid, processTicks(rootPid)]]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(entry)[1]) === rootPid) ticks.set(Number(entry), processTicks(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return ticks;
}

/**
 * How many times a process's main thread has gone to sleep waiting (for a socket, a timer): on
 * this VM each wake-up costs the process more than most of a request's work. NaN off Linux.
 */
export function voluntarySwitches(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}
