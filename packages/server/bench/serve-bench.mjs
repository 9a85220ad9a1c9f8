// coinop as a user starts it: the real `coinop serve --demo` binary with its default flags (plus
// any given after `--`), the embedded database in a fresh directory, or with BENCH_STORE=postgres
// a fresh database on a durable throwaway Postgres cluster (on DATABASE_URL's server if set).
// Measures the developergames read and the play+score loop over 200 funded players on the demo
// game's first tier. A first step toward benchmarking what ships (issue 14). The loop needs the
// players' consent: the bench passes `--default-allowance unlimited` (an operator who vets games).
//
//   node packages/server/bench/serve-bench.mjs [repo root] [-- serve flags…]
//
// The repo root defaults to this checkout; naming another one measures its build (A/B).
// Prints one JSON line per connection count. BENCH_DURATION seconds per measurement (10).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { sealOperatorKey, startChain } from './chain.mjs';
import { cpuShares, cpuSnapshot, voluntarySwitches } from './cpu.mjs';
import { measureFloor } from './floor.mjs';
import { measureGet, measurePlayScore } from './load.mjs';
import { createDatabase, startPostgres, withClient } from './postgres.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const split = args.indexOf('--');
const root = resolve(split === 0 || args.length === 0 ? join(here, '../../..') : args[0]);
const serveFlags = split === -1 ? [] : args.slice(split + 1);
const duration = Number(process.env['BENCH_DURATION'] ?? 10);
const connectionCounts = (process.env['BENCH_CONNECTIONS'] ?? '10,50').split(',').map(Number);
// `read`, `loop` or both: a profile of one scenario should not mix in the other.
const scenarios = (process.env['BENCH_SCENARIOS'] ?? 'read,loop').split(',');
// For diagnosis, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const nodeArgs = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(' ').filter(Boolean);

const store = process.env['BENCH_STORE'] ?? 'pglite';
// BENCH_PG_STATS=1 loads pg_stat_statements and prints each loop's costliest statements.
const pgStats = process.env['BENCH_PG_STATS'] === '1';
// BENCH_FLOOR=1 (Postgres only) follows each loop with a bare API at the same pair rate
// (`floor.mjs`): what this machine charges any server for the requests and wake-ups alone.
const floor = process.env['BENCH_FLOOR'] === '1';
const postgres =
  store === 'postgres'
    ? await startPostgres({
        ...(pgStats ? { shared_preload_libraries: 'pg_stat_statements' } : {}),
        // For diagnosis, e.g. "synchronous_commit=off" to see what waiting for the disk costs.
        ...Object.fromEntries(
          (process.env['BENCH_PG_SETTINGS'] ?? '')
            .split(',')
            .filter(Boolean)
            .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
        ),
      })
    : null;
if (postgres?.skipped) throw new Error(postgres.skipped);
const database = postgres ? await createDatabase(postgres.adminUrl, 'coinop_serve') : null;
const childEnv = { ...process.env };
delete childEnv['DATABASE_URL'];

// BENCH_CHAIN=1: chain mode on (Anvil with the contracts; the deposit watcher and the withdrawal
// sender, with its operator key, running at their defaults), to see what it costs the ledger's
// plays.
const chain = process.env['BENCH_CHAIN'] === '1' ? await startChain() : null;
const dataDir = await mkdtemp(join(tmpdir(), 'coinop-serve-bench-'));
const chainFlags = chain
  ? [
      '--chain-rpc-url',
      chain.rpcUrl,
      '--chain-vault-address',
      chain.deployment.vault,
      '--chain-start-block',
      String(chain.deployment.vaultBlockNumber),
      '--chain-operator-key-file',
      await sealOperatorKey(
        join(root, 'packages/server/dist/cli/main.js'),
        dataDir,
        chain.operatorKey,
      ),
    ]
  : [];
// BENCH_PROCESSES=2 starts a second `coinop serve` on the same database (Postgres only), as
// behind a load balancer, and splits the loop's connections between the two: BENCH_ROUTE=board
// sends each of the demo game's first two boards to one process (routing by game or board),
// `mixed` sends both boards to both.
const processes = Number(process.env['BENCH_PROCESSES'] ?? 1);
const route = process.env['BENCH_ROUTE'] ?? 'board';
if (processes > 1 && !database) throw new Error('BENCH_PROCESSES needs BENCH_STORE=postgres');
const seen = { lines: 0 };

/** Starts `coinop serve`; resolves with what its log says once its API listens. */
function startServe(flags) {
  const started = spawn(
    process.execPath,
    [
      ...nodeArgs,
      join(root, 'packages/server/dist/cli/main.js'),
      'serve',
      '--data-dir',
      dataDir,
      '--api-port',
      '0',
      '--auth-port',
      '0',
      '--web-port',
      '0',
      '--default-allowance',
      'unlimited',
      ...(database ? ['--database-url', database.url] : []),
      ...chainFlags,
      ...flags,
      ...serveFlags,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: childEnv },
  );
  const ready = new Promise((resolveReady, reject) => {
    const found = {};
    createInterface({ input: started.stdout }).on('line', (line) => {
      seen.lines += 1;
      const { msg, urls } = JSON.parse(line);
      found.arcade ??= /^demo: arcade (\S+)$/.exec(msg)?.[1];
      const game = /^demo: game "[^"]+" (\S+) at .*leaderboards: (.*)$/.exec(msg);
      if (game && !found.game) {
        found.game = game[1];
        found.leaderboards = [...game[2].matchAll(/\(([0-9a-f-]{36})\)/g)].map((m) => m[1]);
        found.leaderboard = found.leaderboards[0];
      }
      // Builds before issue 16 (an A/B against an older checkout) logged the secret and the URL.
      found.clientId ??= /^demo: client id ([^;\s]+)/.exec(msg)?.[1];
      found.clientSecret ??= /^demo: client secret (\S+) /.exec(msg)?.[1];
      // The banner comes once everything listens; the demo client's secret is in its file.
      const url = msg.startsWith('coinop is ready')
        ? urls?.api
        : /^coinop api listening on (\S+)$/.exec(msg)?.[1];
      if (url) {
        readFile(join(dataDir, 'demo-client.json'), 'utf8').then(
          (text) => resolveReady({ ...found, ...demoClient(JSON.parse(text)), url }),
          () => resolveReady({ ...found, url }),
        );
      }
    });
    started.on('exit', (code) => reject(new Error(`coinop serve exited ${code} before listening`)));
  });
  return { child: started, ready };
}

/** The demo client's id and secret, as the first start wrote them. */
function demoClient({ clientId, clientSecret }) {
  return { clientId, clientSecret };
}

const first = startServe(['--demo']);
const { child } = first;
const children = [child];
try {
  const { url, arcade, game, leaderboard, leaderboards, clientId, clientSecret } =
    await first.ready;
  // The second process joins the database the first seeded (same data dir: same admin token
  // and secrets key).
  const second = processes > 1 ? startServe([]) : null;
  if (second) children.push(second.child);
  const secondUrl = second ? (await second.ready).url : null;
  const token = await fetch(`${url}/oauth/writetoken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
  }).then((r) => r.json());
  const path = `/arcades/${arcade}/developergames/${game}`;
  const headers = { authorization: `Bearer ${token.access_token}` };
  for (const connections of scenarios.includes('read') ? connectionCounts : []) {
    await measureGet({ url, path, headers, connections, duration: 2 });
    const linesBefore = seen.lines;
    const r = await measureGet({ url, path, headers, connections, duration });
    console.log(
      JSON.stringify({
        root,
        store,
        serveFlags,
        scenario: 'developergames',
        connections,
        rps: Math.round(r.rps),
        p50: r.latency.p50,
        p99: r.latency.p99,
        non2xx: r.non2xx,
        logLinesPerRequest: (seen.lines - linesBefore) / Math.max(1, r.requests),
      }),
    );
  }

  const adminToken = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
  const admin = (path, body) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify(body),
    }).then(async (res) => {
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    });
  const playerIds = !scenarios.includes('loop')
    ? []
    : await Promise.all(
        Array.from({ length: 200 }, async () => {
          const { playerId } = await admin('/admin/players', {
            wallet: `0x${randomBytes(20).toString('hex')}`,
          });
          await admin('/admin/hst/mints', { accountId: playerId, amount: 1_000_000 });
          return playerId;
        }),
      );
  const tier = (leaderboardId) => ({ gameId: game, token: token.access_token, leaderboardId });
  // Each process's share of the loop: its URL, the boards it is sent, its half of the players.
  const targets =
    secondUrl === null
      ? [{ url, games: [tier(leaderboard)], playerIds }]
      : [url, secondUrl].map((target, i) => ({
          url: target,
          games: route === 'mixed' ? leaderboards.slice(0, 2).map(tier) : [tier(leaderboards[i])],
          playerIds: playerIds.filter((_, n) => n % 2 === i),
        }));
  const loopAll = (connections, seconds) =>
    Promise.all(
      targets.map((t) =>
        measurePlayScore({
          url: t.url,
          arcadeId: arcade,
          games: t.games,
          playerIds: t.playerIds,
          connections: Math.max(1, Math.round(connections / targets.length)),
          duration: seconds,
        }),
      ),
    );
  for (const connections of scenarios.includes('loop') ? connectionCounts : []) {
    await loopAll(connections, 2);
    if (pgStats && database) await withClient(database.url, resetStatements);
    const pids = {
      serverPid: child.pid,
      // On DATABASE_URL's server, BENCH_POSTMASTER_PID names its postmaster when it runs here.
      postmasterPid: postgres?.postmasterPid || Number(process.env['BENCH_POSTMASTER_PID']) || null,
      serverWorkers: serveFlags.includes('--workers'),
      extraServerPids: children.slice(1).map((c) => c.pid),
    };
    const before = cpuSnapshot(pids);
    const wakeupsBefore = voluntarySwitches(child.pid);
    const results = await loopAll(connections, duration);
    const after = cpuSnapshot(pids);
    const wakeups = voluntarySwitches(child.pid) - wakeupsBefore;
    const r = combined(results);
    console.log(
      JSON.stringify({
        root,
        store,
        serveFlags,
        scenario: 'play+score',
        connections,
        ...(chain ? { chainMode: true } : {}),
        ...(targets.length > 1 ? { processes: targets.length, route } : {}),
        pairsPerSecond: Math.round(r.pairsPerSecond),
        p50: r.latency.p50,
        p99: r.latency.p99,
        nonOk: r.non2xx,
        cpuUsPerPair: cpuPerPair(before, after, r.pairs),
        wakeupsPerPair: Math.round((wakeups / Math.max(1, r.pairs)) * 100) / 100,
        cpuShares: cpuShares(before, after),
        ...(floor && database
          ? {
              floor: await measureFloor({
                databaseUrl: database.url,
                postmasterPid: null,
                connections,
                pairsPerSecond: r.pairsPerSecond,
                duration,
              }),
            }
          : {}),
      }),
    );
    if (pgStats && database) await withClient(database.url, printStatements);
  }
} finally {
  await Promise.all(
    children.map((c) => {
      c.kill('SIGTERM');
      return new Promise((r) => c.on('close', r));
    }),
  );
  await rm(dataDir, { recursive: true, force: true });
  await database?.drop();
  await postgres?.stop();
  await chain?.stop();
}

/** Microseconds of CPU per pair spent by coinop serve, by Postgres's backends, by this process. */
function cpuPerPair(before, after, pairs) {
  if (!before || !after || pairs === 0) return null;
  const perPair = (ticks) => Math.round((ticks * 10_000) / pairs); // a tick is 10 ms
  let postgresTicks = 0;
  for (const [pid, t] of after.postgres) postgresTicks += t - (before.postgres.get(pid) ?? 0);
  return {
    serve: perPair(after.server - before.server),
    postgres: postmasterKnown(after) ? perPair(postgresTicks) : null,
    loadgen: perPair(after.loadgen - before.loadgen),
  };
}

function postmasterKnown(snapshot) {
  return snapshot.postgres.size > 0;
}

async function resetStatements(client) {
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await client.query('SELECT pg_stat_statements_reset()');
}

async function printStatements(client) {
  const { rows } = await client.query(
    `SELECT calls, round(mean_exec_time::numeric, 3) AS mean_ms, round(mean_plan_time::numeric, 3)
            AS plan_ms, rows, wal_records, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS query
     FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 8`,
  );
  for (const row of rows) console.log(JSON.stringify(row));
}

/** One figure for loops run side by side: pairs add up; latency is the slower side's. */
function combined(results) {
  if (results.length === 1) return results[0];
  const worst = results.reduce((a, b) => (b.latency.p99 > a.latency.p99 ? b : a));
  return {
    pairs: results.reduce((n, r) => n + r.pairs, 0),
    pairsPerSecond: results.reduce((n, r) => n + r.pairsPerSecond, 0),
    latency: worst.latency,
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
  };
}
