// Runs the classified blocks in the manifest's order, each in a fresh shell as a reader pastes
// them: placeholders filled from the declared table, servers in the background until the block
// (or a later `stop` step) ends, and each command's exit code and promised outcome checked.
import { ShellSession, COMMAND_TIMEOUT_MS } from './shell.mjs';
import { BackgroundCommand } from './processes.mjs';

/** A server has this long to print its ready line (a first start creates its database). */
export const READY_TIMEOUT_MS = 3 * 60_000;
/** "A moment later": how long a command whose outcome comes later is run again for. */
export const EVENTUALLY_TIMEOUT_MS = 60_000;
const EVENTUALLY_INTERVAL_MS = 1_000;

/**
 * `text` with each placeholder of `fills` (`{ placeholder: value }`) replaced by its value.
 * Returns `{ text, used }`, `used` the placeholders that occurred.
 */
export function applyFills(text, fills) {
  const used = [];
  let filled = text;
  for (const [placeholder, value] of Object.entries(fills)) {
    if (!filled.includes(placeholder)) continue;
    used.push(placeholder);
    filled = filled.replaceAll(placeholder, value);
  }
  return { text: filled, used };
}

async function resolveFills(fills, ctx) {
  const resolved = {};
  for (const [placeholder, value] of Object.entries(fills ?? {})) {
    resolved[placeholder] = typeof value === 'function' ? await value(ctx) : value;
  }
  return resolved;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const indent = (text) => text.replace(/^/gm, '  │ ');

/**
 * Runs `entries` (the manifest, in order) for which `runs` (from classify) has a block. Each
 * result is `{ where, code, status: 'ok' | 'failed' | 'not run', detail, ms }`.
 */
export async function runPlan({ entries, runs, sessions, ctx, print = console.log }) {
  const results = [];
  const byEntry = new Map(runs.map((run) => [run.entry, run]));
  const ready = new Set();
  for (const entry of entries) {
    if (entry.stop !== undefined) {
      const server = ctx.servers.get(entry.stop);
      if (!server) continue;
      ctx.servers.delete(entry.stop);
      print(`\n■ stopping ${entry.stop} (Ctrl-C)`);
      const started = Date.now();
      try {
        await server.stop();
        results.push({
          where: `stop ${entry.stop}`,
          code: '',
          status: 'ok',
          ms: Date.now() - started,
        });
      } catch (error) {
        results.push({
          where: `stop ${entry.stop}`,
          code: '',
          status: 'failed',
          detail: error.message,
        });
        print(`  ✗ ${error.message}`);
      }
      continue;
    }
    const run = byEntry.get(entry);
    if (!run) continue;
    const session = sessions[entry.session];
    if (!session) throw new TypeError(`${entry.file}: unknown session ${entry.session}`);
    const missing = notRunnable(entry, ctx);
    if (missing) {
      print(`\n▷ ${entry.file}:${run.block.line}: not run: ${missing}`);
      for (const { command, spec } of run.commands) {
        if (spec.skip === undefined) {
          results.push({
            where: `${entry.file}:${command.line}`,
            code: command.code,
            status: 'not run',
            detail: missing,
          });
        }
      }
      continue;
    }
    if (!ready.has(entry.session)) {
      print(`\n● ${entry.session}: ${session.description}`);
      await session.setup?.(ctx, print);
      ready.add(entry.session);
    }
    results.push(...(await runBlock(run, session, ctx, print)));
  }
  return results;
}

function notRunnable(entry, ctx) {
  for (const need of entry.needs ?? []) {
    if (need === 'postgres' && !ctx.hasPostgres) return 'needs DATABASE_URL (a Postgres server)';
    if (need !== 'postgres' && !ctx.servers.has(need)) return `needs ${need}, which is not running`;
  }
  return null;
}

async function runBlock(run, session, ctx, print) {
  const { entry, block } = run;
  const results = [];
  print(`\n▶ ${entry.file}:${block.line} (${entry.session})`);
  let cwd;
  try {
    await entry.before?.(ctx);
    cwd = entry.cwd ? await entry.cwd(ctx) : session.cwd(ctx);
  } catch (error) {
    print(`  ✗ ${error.message}`);
    return [
      {
        where: `${entry.file}:${block.line}`,
        code: '(the block)',
        status: 'failed',
        detail: error.message,
      },
    ];
  }
  print(`$ cd ${cwd}`);
  const shell = new ShellSession({
    cwd,
    env: session.env(ctx),
    // Each piece after the first starts with the newline that ended the one before.
    onOutput: (text) => print(indent(text.replace(/^\n/, ''))),
  });
  const blockServers = [];
  let failed = null;
  try {
    const blockFills = await resolveFills(entry.fill, ctx);
    for (const [name, value] of Object.entries((await entry.env?.(ctx)) ?? {})) {
      print(`$ export ${name}=…   # the reader's own, set before the block`);
      await shell.export(name, value);
    }
    const usedFills = new Set();
    for (const { command, spec } of run.commands) {
      const where = `${entry.file}:${command.line}`;
      if (spec.skip !== undefined) continue;
      if (failed) {
        results.push({ where, code: command.code, status: 'not run', detail: `after ${failed}` });
        continue;
      }
      const fills = { ...blockFills, ...(await resolveFills(spec.fill, ctx)) };
      const { text, used } = applyFills(command.text, fills);
      used.forEach((placeholder) => usedFills.add(placeholder));
      const started = Date.now();
      try {
        if (spec.server) {
          await startServer(text, spec.server, { shell, ctx, print, blockServers, cwd: spec.cwd });
        } else {
          await runCommand(text, spec, { shell, ctx, print });
        }
        print(`  ✓ ${seconds(Date.now() - started)}`);
        results.push({ where, code: command.code, status: 'ok', ms: Date.now() - started });
      } catch (error) {
        failed = where;
        print(`  ✗ ${error.message}`);
        results.push({ where, code: command.code, status: 'failed', detail: error.message });
      }
    }
    const unused = Object.keys(entry.fill ?? {}).filter((p) => !usedFills.has(p));
    if (!failed && unused.length > 0) {
      throw new Error(`the manifest fills ${unused.join(', ')}, which no command of the block has`);
    }
    if (!failed) await entry.after?.(ctx);
  } catch (error) {
    print(`  ✗ ${error.message}`);
    results.push({
      where: `${entry.file}:${block.line}`,
      code: '(the block)',
      status: 'failed',
      detail: error.message,
    });
  } finally {
    for (const server of blockServers.reverse()) {
      print(`■ stopping \`${server.command.split('\n')[0]}\` (Ctrl-C)`);
      try {
        await server.stop();
      } catch (error) {
        print(`  ✗ ${error.message}`);
        results.push({
          where: `${entry.file}:${block.line}`,
          code: server.command,
          status: 'failed',
          detail: error.message,
        });
      }
    }
    await shell.close();
  }
  return results;
}

async function runCommand(text, spec, { shell, ctx, print }) {
  const deadline = Date.now() + (spec.eventually ? EVENTUALLY_TIMEOUT_MS : 0);
  for (let attempt = 1; ; attempt++) {
    print(attempt === 1 ? `$ ${text}` : `$ ${text.split('\n')[0]}   # again (attempt ${attempt})`);
    // What happens meanwhile (a person approving in the browser); its failure is caught at once
    // and reported after the command.
    const during = spec.during
      ? spec.during(ctx).then(
          () => null,
          (error) => error,
        )
      : null;
    const result = await shell.run(text, { timeoutMs: spec.timeoutMs ?? COMMAND_TIMEOUT_MS });
    const duringError = await during;
    try {
      if (duringError) throw duringError;
      if (result.timedOut)
        throw new Error(`did not end within ${(spec.timeoutMs ?? COMMAND_TIMEOUT_MS) / 1000} s`);
      const expected = spec.exitCode ?? 0;
      if (result.code !== expected) {
        throw new Error(
          `exit code ${result.code}${result.shellExited ? ' (the shell exited)' : ''}, expected ${expected}`,
        );
      }
      const exports = await spec.after?.(result, ctx);
      for (const [name, value] of Object.entries(exports ?? {})) {
        print(`$ export ${name}=…   # from the output above, as the reader copies it`);
        await shell.export(name, value);
      }
      return;
    } catch (error) {
      if (!spec.eventually || Date.now() > deadline || result.timedOut || result.shellExited)
        throw error;
      print(`  … not yet: ${error.message.split('\n')[0]}`);
      await new Promise((resolve) => setTimeout(resolve, EVENTUALLY_INTERVAL_MS));
    }
  }
}

async function startServer(text, server, { shell, ctx, print, blockServers, cwd }) {
  // A block's servers are alternatives on the same ports (a flag, or the environment): the reader
  // stops one with Ctrl-C before trying the next.
  for (let previous = blockServers.pop(); previous; previous = blockServers.pop()) {
    print(`■ stopping \`${previous.command.split('\n')[0]}\` (Ctrl-C)`);
    await previous.stop();
  }
  print(`$ ${text}   # in the background, as in a second terminal`);
  const prefix = server.name ?? 'server';
  const background = new BackgroundCommand(text, {
    cwd: cwd ? await cwd(ctx) : shell.cwd,
    env: shell.env,
    onOutput: (chunk) => print(chunk.replace(/\n$/, '').replace(/^/gm, `  ${prefix} │ `)),
  });
  try {
    await background.waitFor(
      server.ready ?? /coinop is ready/,
      server.readyTimeoutMs ?? READY_TIMEOUT_MS,
    );
    await server.check?.(ctx, background);
  } catch (error) {
    background.kill();
    throw error;
  }
  if (server.keep) ctx.servers.set(server.name, background);
  else blockServers.push(background);
}
