// `npm run check:docs`: every shell command in the README and the docs, run as written against a
// fresh clone of this checkout and a fresh install of its packages, or listed with why not
// (scripts/doc-commands/manifest.mjs). docs/doc-commands.md says how and why.
//   node scripts/doc-commands.mjs            classify every block, then run them (minutes)
//   node scripts/doc-commands.mjs --list     classify and print, run nothing
//   node scripts/doc-commands.mjs --keep     keep the temporary directory, for a look after
//   node scripts/doc-commands.mjs --json F   also write the counts to F (for .ci/run's summary)
// DATABASE_URL names a Postgres server where the check may create databases; without it the
// Postgres blocks are not run (and under CI=true that fails the check).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classify } from './doc-commands/classify.mjs';
import { Context } from './doc-commands/context.mjs';
import { docBlocks } from './doc-commands/extract.mjs';
import { MANIFEST, SESSIONS } from './doc-commands/manifest.mjs';
import { portsInUse, processesUnder } from './doc-commands/processes.mjs';
import { runPlan } from './doc-commands/run.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * The ports the README fixes: the API, sign-in and web app (8080–8082), the example games (8090,
 * 8091, 8092), the dev chain (8545), and metrics.md's 9464.
 */
export const README_PORTS = [8080, 8081, 8082, 8090, 8091, 8092, 8545, 9464];

function printClassification({ runs, skipped }, print) {
  const runCount = runs.reduce((n, run) => n + run.commands.filter((c) => !c.spec.skip).length, 0);
  print(`doc commands: ${runCount} to run, ${skipped.length} not run here:`);
  for (const { file, line, code, reason } of skipped) {
    print(
      `  ${file}:${line}  ${code.length > 70 ? `${code.slice(0, 69)}…` : code}\n      ${reason}`,
    );
  }
}

function summarize(results, print) {
  const count = (status) => results.filter((r) => r.status === status).length;
  const failed = results.filter((r) => r.status !== 'ok');
  if (failed.length > 0) {
    print('\nnot as the docs say:');
    for (const r of failed) {
      print(
        `  ${r.status === 'failed' ? '✗' : '▷'} ${r.where}  ${r.code}\n      ${(r.detail ?? '').split('\n').join('\n      ')}`,
      );
    }
  }
  return { ok: count('ok'), failed: count('failed'), notRun: count('not run') };
}

async function main(argv) {
  const print = (text) => process.stdout.write(`${text}\n`);
  const started = Date.now();
  const classified = classify(docBlocks(ROOT), MANIFEST);
  if (classified.problems.length > 0) {
    for (const problem of classified.problems) process.stderr.write(`doc commands: ${problem}\n`);
    return 1;
  }
  printClassification(classified, print);
  if (argv.includes('--list')) return 0;

  const databaseUrl = process.env.DATABASE_URL || undefined;
  if (!databaseUrl && process.env.CI) {
    process.stderr.write("doc commands: CI needs DATABASE_URL, for the docs' Postgres commands\n");
    return 1;
  }
  const taken = await portsInUse(README_PORTS);
  if (taken.length > 0) {
    process.stderr.write(
      `doc commands: port ${taken.join(', ')} of 127.0.0.1 is in use, and the README's ` +
        `commands listen there (${README_PORTS.join(', ')}): stop what listens (ss -ltnp shows ` +
        'it) and run again\n',
    );
    return 1;
  }
  const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' });
  if (dirty !== '') {
    print('doc commands: note: uncommitted changes are not checked; the clone has HEAD');
  }

  const root = mkdtempSync(join(tmpdir(), 'coinop-doc-commands-'));
  const ctx = new Context({ root, checkout: ROOT, databaseUrl, log: print });
  // Interrupted: everything started under the run's directory is killed, its databases dropped.
  const onSignal = () => {
    for (const p of processesUnder(root)) process.kill(p.pid, 'SIGKILL');
    void (databaseUrl ? ctx.dropDatabases() : Promise.resolve())
      .catch(() => {})
      .finally(() => {
        if (!argv.includes('--keep')) rmSync(root, { recursive: true, force: true });
        process.exit(130);
      });
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);

  const results = [];
  try {
    results.push(
      ...(await runPlan({
        entries: MANIFEST,
        runs: classified.runs,
        sessions: SESSIONS,
        ctx,
        print,
      })),
    );
  } catch (error) {
    results.push({ where: 'the checker', code: '', status: 'failed', detail: error.stack });
  }
  for (const [name, server] of ctx.servers) {
    results.push({
      where: `stop ${name}`,
      code: '',
      status: 'failed',
      detail: 'still running at the end',
    });
    server.kill();
  }
  if (databaseUrl) await ctx.dropDatabases();
  // Nothing the docs started may outlive them: no process under the run's directory, no port.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const left = processesUnder(root);
  if (left.length > 0) {
    results.push({
      where: 'the end',
      code: '',
      status: 'failed',
      detail: `processes left running:\n${left.map((p) => `${p.pid} ${p.command}`).join('\n')}`,
    });
    for (const p of left) process.kill(p.pid, 'SIGKILL');
  }
  const stillListening = await portsInUse(README_PORTS);
  if (stillListening.length > 0) {
    results.push({
      where: 'the end',
      code: '',
      status: 'failed',
      detail: `still listening: ${stillListening.join(', ')}`,
    });
  }
  if (argv.includes('--keep')) print(`\ndoc commands: kept ${root}`);
  else rmSync(root, { recursive: true, force: true });

  const { ok, failed, notRun } = summarize(results, print);
  const seconds = Math.round((Date.now() - started) / 1000);
  const listed = classified.skipped.length;
  print(
    `\ndoc commands: ${ok} ok, ${failed} failed, ${notRun} not run, ${listed} listed as not run here; took ${seconds} s`,
  );
  const jsonAt = argv.indexOf('--json');
  if (jsonAt !== -1)
    writeFileSync(argv[jsonAt + 1], JSON.stringify({ ok, failed, notRun, listed, seconds }));
  return failed > 0 || (notRun > 0 && process.env.CI) ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2));
}
