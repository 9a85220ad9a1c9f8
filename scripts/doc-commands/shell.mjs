// One terminal a reader types commands into: a bash process that keeps its working directory,
// its variables and its options (`set -e`) from one command to the next, as a terminal does.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** A command that runs longer than this is stopped and fails. */
export const COMMAND_TIMEOUT_MS = 3 * 60_000;

/** The text quoted for bash, so that it reaches a command as one word, unchanged. */
export function shellQuote(text) {
  return `'${String(text).replaceAll("'", `'\\''`)}'`;
}

export class ShellSession {
  /**
   * Starts bash in `cwd` with `env`. `onOutput(text)` sees the output of every command as it
   * comes (standard error merged into standard output, as a terminal shows them).
   */
  constructor({ cwd, env, onOutput = () => {} }) {
    this.marker = `__doc_command_done_${randomBytes(8).toString('hex')}`;
    this.onOutput = onOutput;
    this.cwd = cwd;
    this.env = env;
    this.pending = null;
    this.buffer = '';
    this.exitCode = null;
    // Its own process group, so that a command that hangs is stopped with all it started.
    this.child = spawn('bash', ['--noprofile', '--norc'], {
      cwd,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.setEncoding('utf8').on('data', (chunk) => this.receive(chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk) => this.receive(chunk));
    this.exited = new Promise((resolve) => {
      // 'close', not 'exit': the output read to its end first.
      this.child.on('close', (code, signal) => {
        this.exitCode = code ?? (signal ? 128 : 1);
        this.emit(this.buffer);
        this.buffer = '';
        this.finish({ code: this.exitCode, shellExited: true });
        resolve(this.exitCode);
      });
    });
    this.child.stdin.write('exec 2>&1\n');
  }

  /**
   * Runs one command as the reader would paste it; resolves to `{ code, output, cwd, shellExited }`
   * once it ends. Its standard input is empty, so it cannot read the commands that follow.
   */
  run(command, { timeoutMs = COMMAND_TIMEOUT_MS } = {}) {
    if (this.pending) throw new Error('a command is still running in this shell');
    if (this.exitCode !== null) {
      return Promise.resolve({ code: this.exitCode, output: '', cwd: this.cwd, shellExited: true });
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.finish({ code: null, timedOut: true });
        this.kill();
      }, timeoutMs);
      this.pending = { resolve, timer, output: '' };
      // The group keeps `cd`, variables and `set` in this shell; the marker line reports the
      // status and the directory after it.
      this.child.stdin.write(
        `{\n${command}\n} < /dev/null\nprintf '\\n%s %d %s\\n' ${this.marker} "$?" "$PWD"\n`,
      );
    });
  }

  /** Sets an exported variable in the shell, as a reader would before the next command. */
  async export(name, value) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`not a variable name: ${name}`);
    const result = await this.run(`export ${name}=${shellQuote(value)}`);
    if (result.code !== 0) throw new Error(`export ${name} failed:\n${result.output}`);
  }

  receive(chunk) {
    this.buffer += chunk;
    for (;;) {
      const at = this.buffer.indexOf(this.marker);
      if (at === -1) break;
      const end = this.buffer.indexOf('\n', at);
      if (end === -1) return; // the rest of the marker line is still to come
      const [, code, ...dir] = this.buffer.slice(at, end).split(' ');
      // printf put a newline before the marker, so that it starts a line: not the command's.
      this.emit(this.buffer.slice(0, Math.max(0, at - 1)));
      this.buffer = this.buffer.slice(end + 1);
      this.cwd = dir.join(' ');
      this.finish({ code: Number(code) });
    }
    // Hold back the last newline and what follows it: that newline may be the marker's.
    const last = this.buffer.lastIndexOf('\n');
    if (last > 0) {
      this.emit(this.buffer.slice(0, last));
      this.buffer = this.buffer.slice(last);
    }
  }

  emit(text) {
    if (text === '') return;
    if (this.pending) this.pending.output += text;
    this.onOutput(text);
  }

  finish(result) {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    clearTimeout(pending.timer);
    pending.resolve({
      timedOut: false,
      shellExited: false,
      ...result,
      output: pending.output,
      cwd: this.cwd,
    });
  }

  kill() {
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  /** Ends the shell (its stdin closed, as `exit`), and anything it left in its group. */
  async close() {
    if (this.exitCode === null) {
      this.child.stdin.end();
      const timer = setTimeout(() => this.kill(), 5_000);
      await this.exited;
      clearTimeout(timer);
    }
    this.kill();
  }
}
