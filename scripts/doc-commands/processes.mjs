// The servers a doc starts (`npm start`, `coinop serve`), run in the background as a reader runs
// them in a second terminal, and stopped with Ctrl-C; the fixed ports they need; and the check
// that nothing they started is left running.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';

/** How long a server may take to stop after Ctrl-C, as coinop closes its listeners and database. */
export const STOP_TIMEOUT_MS = 30_000;

/** The ports of 127.0.0.1 that are in use, of `ports`. */
export async function portsInUse(ports, host = '127.0.0.1') {
  const taken = [];
  for (const port of ports) {
    const free = await new Promise((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
    });
    if (!free) taken.push(port);
  }
  return taken;
}

/** The processes whose process group is `pgid` (Linux: /proc), as `{ pid, command }`. */
export function groupMembers(pgid) {
  return processes().filter((p) => p.pgid === pgid);
}

/**
 * Processes other than this one whose working directory or command line is under `root`: what a
 * run under `root` left behind.
 */
export function processesUnder(root) {
  return processes().filter(
    (p) => p.pid !== process.pid && (p.cwd.startsWith(root) || p.command.includes(root)),
  );
}

function processes() {
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${name}/cwd`);
      } catch {
        // Another user's process: its directory is not ours to read, nor is it ours.
      }
      if (fields[0] === 'Z') continue; // a zombie holds nothing and is reaped by its parent
      found.push({ pid: Number(name), pgid: Number(fields[2]), command, cwd });
    } catch {
      // It ended while we looked.
    }
  }
  return found;
}

/**
 * A command running in the background in its own process group, its output collected (and
 * passed to `onOutput`). `waitFor` resolves once the output matches; `stop` sends Ctrl-C (SIGINT)
 * to the group and checks that every process of the group ends.
 */
export class BackgroundCommand {
  constructor(command, { cwd, env, onOutput = () => {} }) {
    this.command = command;
    this.output = '';
    this.exitCode = undefined;
    this.child = spawn('bash', ['-c', command], {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.pgid = this.child.pid;
    const collect = (chunk) => {
      this.output += chunk;
      onOutput(chunk);
    };
    this.child.stdout.setEncoding('utf8').on('data', collect);
    this.child.stderr.setEncoding('utf8').on('data', collect);
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exitCode = code ?? signal;
        resolve(this.exitCode);
      });
    });
  }

  /** Resolves when the output matches `pattern`; rejects if the command ends first or on time. */
  async waitFor(pattern, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.output)) {
      if (this.exitCode !== undefined) {
        throw new Error(`\`${this.command}\` ended (exit ${this.exitCode}) before ${pattern}`);
      }
      if (Date.now() > deadline) {
        throw new Error(`\`${this.command}\` printed no ${pattern} within ${timeoutMs / 1000} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Ctrl-C, then waits for the whole process group to end. Throws if the command had already
   * ended (a server that stops by itself failed), if it does not stop in time, or if it leaves
   * any process of its group behind (those are killed).
   */
  async stop(timeoutMs = STOP_TIMEOUT_MS) {
    if (this.exitCode !== undefined) {
      throw new Error(
        `\`${this.command}\` ended by itself (exit ${this.exitCode}) while it should serve`,
      );
    }
    process.kill(-this.pgid, 'SIGINT');
    const deadline = Date.now() + timeoutMs;
    let members = groupMembers(this.pgid);
    while ((this.exitCode === undefined || members.length > 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      members = groupMembers(this.pgid);
    }
    if (this.exitCode === undefined || members.length > 0) {
      this.kill();
      const left = members.map((p) => `${p.pid} ${p.command}`).join('\n    ');
      throw new Error(
        `\`${this.command}\` did not stop within ${timeoutMs / 1000} s of Ctrl-C` +
          (left ? `; still running:\n    ${left}` : ''),
      );
    }
  }

  /** SIGKILL to the group, for cleaning up after a failure. */
  kill() {
    try {
      process.kill(-this.pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
