// `npm run bench`: coinop's benchmark. autocannon (here) against real listeners (each in a
// child process): a bare Fastify route as the yardstick, then on PGlite and on a durable
// Postgres the play+score loop and the developergames read; then ranking at 1M bests on one
// board, straight against each database. Prints Markdown tables and writes the figures as JSON.
//
// Knobs (environment): BENCH_DURATION seconds per measurement (10), BENCH_WARMUP (2),
// BENCH_CONNECTIONS (10,50), BENCH_STORES (pglite,postgres), BENCH_PLAYERS (2000),
// BENCH_RANK_ROWS (1000000), BENCH_RANK_SAMPLES (2000), BENCH_RANK_BUDGET (20 seconds per
// ranking measurement at most), BENCH_RANK_STORES (postgres,pglite), BENCH_BOARD_PLAYERS
// (1000000: the board of the board reads; the ranking board when the sizes agree),
// BENCH_CLOSE_ENTRANTS (100000: entrants of the tournament round the `close` part closes, on
// BENCH_RANK_STORES), BENCH_PARTS (serve,http,ranking,boards,chain,close,verifier,live: `serve`
// runs serve-bench.mjs against `coinop serve`; `verifier` the replay sandbox, verifier.mjs;
// `live` the live streams, live.mjs), BENCH_OUT (bench/results/latest.json), DATABASE_URL (use that
// server instead of a throwaway cluster). For diagnosis: BENCH_SERVER_NODE_ARGS (node flags for
// the API process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") and BENCH_PG_SETTINGS (extra
// settings of the throwaway cluster, e.g. "shared_preload_libraries=pg_stat_statements").
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, totalmem, tmpdir, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrate } from '../dist/store/migrate.js';
import { openPglite } from '../dist/store/pglite.js';
import { openPostgres } from '../dist/store/postgres.js';
import { cpuShares, cpuSnapshot } from './cpu.mjs';
import { measureGet, measurePlayScore } from './load.mjs';
import { createDatabase, startPostgres } from './postgres.mjs';
import { boardReadsBench } from './board-reads.mjs';
import { loadBigBoard, rankingBench } from './ranking.mjs';
import { closeBench } from './tournament-close.mjs';
import { verifierBench, verifierTable } from './verifier.mjs';
import { liveBench, liveTable } from './live.mjs';
import { forkTarget } from './target.mjs';
import {
  httpTable,
  serveTable,
  serveVerdicts,
  table,
  loopDetailTable,
  rankingTable,
  closeTable,
  boardReadsTable,
  readCpuTable,
  verdictTable,
  verdicts,
  waitText,
} from './report.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const env = process.env;
const list = (v, fallback) =>
  (v ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const options = {
  duration: Number(env['BENCH_DURATION'] ?? 10),
  warmup: Number(env['BENCH_WARMUP'] ?? 2),
  connections: list(env['BENCH_CONNECTIONS'], '10,50').map(Number),
  stores: list(env['BENCH_STORES'], 'pglite,postgres'),
  players: Number(env['BENCH_PLAYERS'] ?? 2000),
  rankRows: Number(env['BENCH_RANK_ROWS'] ?? 1_000_000),
  rankSamples: Number(env['BENCH_RANK_SAMPLES'] ?? 2000),
  rankBudget: Number(env['BENCH_RANK_BUDGET'] ?? 20),
  rankStores: list(env['BENCH_RANK_STORES'], 'postgres,pglite'),
  boardPlayers: Number(env['BENCH_BOARD_PLAYERS'] ?? 1_000_000),
  closeEntrants: Number(env['BENCH_CLOSE_ENTRANTS'] ?? 100_000),
  parts: list(env['BENCH_PARTS'], 'serve,http,ranking,boards,chain,close,verifier,live'),
  out: env['BENCH_OUT'] ?? join(here, 'results', 'latest.json'),
  serverNodeArgs: (env['BENCH_SERVER_NODE_ARGS'] ?? '').split(' ').filter(Boolean),
  pgSettings: Object.fromEntries(
    list(env['BENCH_PG_SETTINGS'], '').map((kv) => [
      kv.slice(0, kv.indexOf('=')),
      kv.slice(kv.indexOf('=') + 1),
    ]),
  ),
};
const FUND_HST = 1_000_000;
/** One connection count for the chain part's loop: its question is chain on against off. */
const CHAIN_LOOP_CONNECTIONS = 10;
const GAMES = 4;

const cleanups = [];
const startedAt = Date.now();
const log = (line) =>
  console.error(`[bench ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${line}`);
let interrupted = false;
process.on('SIGINT', () => {
  interrupted = true;
  log('interrupted: cleaning up');
  void cleanup().finally(() => process.exit(130));
});

/** Registers `fn` to run at exit; the returned function runs it now instead. */
function deferred(fn) {
  cleanups.push(fn);
  return async () => {
    const i = cleanups.indexOf(fn);
    if (i >= 0) cleanups.splice(i, 1);
    await fn();
  };
}

async function cleanup() {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()();
    } catch (error) {
      log(`cleanup: ${error.message}`);
    }
  }
}

async function main() {
  const started = new Date();
  log(`options ${JSON.stringify(options)}`);
  // First what ships: the real `coinop serve` with its defaults (serve-bench.mjs), per store.
  const serve = [];
  if (options.parts.includes('serve')) {
    for (const store of options.stores) serve.push(...(await serveBench(store)));
  }

  // Deposits credited and withdrawals paid per second by `coinop serve` (chain-bench.mjs), and
  // the play+score loop with chain mode off and on in the same run (serve-bench.mjs).
  const chain = [];
  const chainLoop = [];
  if (options.parts.includes('chain')) {
    for (const store of options.stores) chain.push(...(await childRows('chain-bench.mjs', store)));
    for (const store of options.stores) {
      for (const chainMode of ['0', '1']) {
        const rows = await childRows('serve-bench.mjs', store, {
          BENCH_CHAIN: chainMode,
          BENCH_SCENARIOS: 'loop',
          BENCH_CONNECTIONS: String(CHAIN_LOOP_CONNECTIONS),
        });
        for (const r of rows) log(`${store} play+score chain ${chainMode}: ${r.pairsPerSecond}/s`);
        chainLoop.push(...rows);
      }
    }
  }

  const needPostgres =
    (options.parts.includes('http') && options.stores.includes('postgres')) ||
    ((bigBoardParts().length > 0 || options.parts.includes('close')) &&
      options.rankStores.includes('postgres'));
  const postgres = needPostgres
    ? await startPostgres(options.pgSettings)
    : { skipped: 'not asked for' };
  if (postgres.skipped) log(`Postgres rows skipped: ${postgres.skipped}`);
  else {
    cleanups.push(() => postgres.stop());
    log(`Postgres: ${postgres.source} ${JSON.stringify(postgres.settings)}`);
  }

  const http = { bare: [], rows: [], audits: {} };
  if (options.parts.includes('http')) await httpBench(http, postgres);

  const ranking = [];
  const boards = [];
  if (bigBoardParts().length > 0) {
    for (const store of options.rankStores) {
      if (store === 'postgres' && postgres.skipped) continue;
      const result = await bigBoardOn(store, postgres);
      if (result.ranking) ranking.push(result.ranking);
      if (result.boards) boards.push(result.boards);
    }
  }

  const close = [];
  if (options.parts.includes('close')) {
    for (const store of options.rankStores) {
      if (store === 'postgres' && postgres.skipped) continue;
      close.push(await closeOn(store, postgres));
    }
  }

  // The replay sandbox (issue 30): a verifier's cost per score, no database involved.
  const verifier = options.parts.includes('verifier') ? await verifierBench(log) : [];

  // Live updates (issue 31): streams one process holds, and score-to-screen latency.
  const live = options.parts.includes('live') ? await liveBench(log) : null;

  const machine = {
    cpu: `${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    kernel: release(),
    postgres: postgres.skipped ? null : postgres.settings,
  };
  const verdictList = [...serveVerdicts(serve, http.bare), ...verdicts(http.rows, ranking, boards)];

  const out = [];
  out.push(
    `coinop bench, ${started.toISOString()}: ${machine.cpu}, ${machine.memoryGiB} GiB, ` +
      `Node ${machine.node}`,
  );
  if (serve.length > 0) {
    out.push('', '## `coinop serve` as shipped (serve-bench.mjs: defaults, 200 players)');
    out.push(serveTable(serve));
  }
  if (chain.length > 0) {
    out.push(
      '',
      '## Chain: a backlog of deposits credited by `coinop serve` (chain-bench.mjs, Anvil)',
    );
    out.push(
      table(
        ['store', 'deposits', 'blocks', 'seconds', 'credited/s', 'balanced'],
        chain
          .filter((r) => r.scenario === 'deposits credited')
          .map((r) => [
            r.store,
            String(r.deposits),
            String(r.blocks),
            String(r.seconds),
            String(r.depositsPerSecond),
            String(r.balanced),
          ]),
      ),
    );
    out.push(
      '',
      '## Chain: a backlog of withdrawals paid by `coinop serve` (chain-bench.mjs, Anvil)',
    );
    out.push(
      table(
        [
          'store',
          'withdrawals',
          'transactions',
          'per tx',
          'seconds',
          'paid/s',
          'gas/withdrawal',
          'reconciled',
        ],
        chain
          .filter((r) => r.scenario === 'withdrawals paid')
          .map((r) => [
            r.store,
            String(r.withdrawals),
            String(r.transactions),
            String(r.withdrawalsPerTransaction),
            String(r.seconds),
            String(r.withdrawalsPerSecond),
            String(r.gasPerWithdrawal),
            `${r.reconciled} (${r.unexplained})`,
          ]),
      ),
    );
  }
  if (chainLoop.length > 0) {
    out.push('', '## Chain: play+score with chain mode off and on (serve-bench.mjs)');
    out.push(
      table(
        ['store', 'chain mode', 'connections', 'pairs/s', 'p50 ms', 'p99 ms', 'non-2xx'],
        chainLoop.map((r) => [
          r.store,
          r.chainMode ? 'on' : 'off',
          String(r.connections),
          String(r.pairsPerSecond),
          r.p50.toFixed(1),
          r.p99.toFixed(1),
          String(r.nonOk),
        ]),
      ),
    );
  }
  if (postgres.skipped) out.push(`Postgres skipped: ${postgres.skipped}`);
  else out.push(`Postgres: ${postgres.source}, ${JSON.stringify(postgres.settings)}`);
  out.push(
    `${options.duration} s per measurement after ${options.warmup} s warm-up; load generator ` +
      'autocannon in this process, each server in its own process, all on this machine.',
  );
  if (http.rows.length > 0) {
    out.push('', '## In-process API (the detail: `buildApi`, silent logs, 2,000 players)');
    out.push('', '## Throughput and latency (per request; "vs bare": req/s ÷ bare Fastify req/s)');
    out.push(httpTable([...http.bare, ...http.rows], http.bare));
    out.push(
      '',
      '## play+score detail (CPU in % of one core; srv = API process, gen = autocannon)',
    );
    out.push(loopDetailTable(http.rows));
    const waits = http.rows.filter((r) => r.waits);
    if (waits.length > 0) {
      out.push('', '## Postgres backends by state during the loop (mean of 100 ms samples)');
      for (const r of waits)
        out.push(`- ${r.scenario}, ${r.connections} conns: ${waitText(r.waits)}`);
    }
    out.push('', '## Reads: CPU and statements per request');
    out.push(readCpuTable([...http.bare, ...http.rows]));
    out.push('', '## Ledger after the runs');
    for (const [store, a] of Object.entries(http.audits)) {
      out.push(
        `- ${store}: ledger balanced: ${a.balanced}; ${a.playsScored} plays scored in the ` +
          `database, ${a.pairsCounted} counted by the bench incl. warm-ups (the rest were in ` +
          `flight when a run stopped); ${a.playsOpen} plays left open`,
      );
    }
  }
  if (ranking.length > 0) {
    out.push('', '## Ranking at scale (one call at a time, straight against the database)');
    out.push(rankingTable(ranking));
    for (const r of ranking) {
      out.push(
        `- ${r.store}: bulk load ${r.loadSeconds.toFixed(1)} s; ` +
          `${r.check.bucketRows.toLocaleString('en')} ` +
          `bucket rows; countAtOrAbove matched count(*) on ${r.check.comparedWithNaiveCount} keys`,
      );
      if (r.plan) out.push('', '```', ...r.plan, '```');
    }
  }
  if (close.length > 0) {
    out.push('', '## Closing a tournament round (closeRound in one transaction, top 10% paid)');
    out.push(closeTable(close));
  }
  if (boards.length > 0) {
    out.push('', '## Board reads at scale (one call at a time, through the store functions)');
    out.push(boardReadsTable(boards));
  }
  if (verifier.length > 0) {
    out.push('', '## Replay verifier (QuickJS-wasm sandbox, a fresh context per run)');
    out.push(verifierTable(verifier));
  }
  if (live !== null) {
    out.push('', '## Live updates (public board streams on one PGlite API process)');
    out.push(liveTable(live));
  }
  if (verdictList.length > 0) out.push('', '## Targets', verdictTable(verdictList));
  console.log(out.join('\n'));

  await mkdir(dirname(options.out), { recursive: true });
  await writeFile(
    options.out,
    JSON.stringify(
      {
        started,
        options,
        machine,
        serve,
        chain,
        chainLoop,
        http,
        ranking,
        close,
        boards,
        verifier,
        live,
        verdicts: verdictList,
      },
      null,
      2,
    ),
  );
  log(`wrote ${options.out}`);
}

async function httpBench(http, postgres) {
  const bare = await startTarget('bare');
  try {
    for (const connections of options.connections) {
      const r = await measure(bare, null, null, (duration) =>
        measureGet({ url: bare.info.url, path: '/', connections, duration }),
      );
      http.bare.push({ scenario: 'bare Fastify GET /', store: '–', connections, ...r });
      log(`bare ${connections} conns: ${Math.round(r.rps)} req/s`);
    }
  } finally {
    await bare.close();
  }

  for (const store of options.stores) {
    if (store === 'postgres' && postgres.skipped) continue;
    const database =
      store === 'postgres' ? await createDatabase(postgres.adminUrl, 'coinop_bench') : null;
    const dropDatabase = database ? deferred(() => database.drop()) : async () => {};
    log(`${store}: seeding ${GAMES} games and ${options.players} funded players`);
    const api = await startTarget('api', {
      store,
      postgresUrl: database?.url,
      games: GAMES,
      players: options.players,
      fundHst: FUND_HST,
    });
    try {
      const { info } = api;
      const games = [];
      for (const g of info.games) {
        const res = await fetch(`${info.url}/oauth/writetoken`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: g.clientId, client_secret: g.clientSecret }),
        });
        if (res.status !== 200) throw new Error(`writetoken: ${res.status} ${await res.text()}`);
        const token = (await res.json()).access_token;
        games.push({ gameId: g.gameId, leaderboardId: g.leaderboardIds[0], token });
      }
      const pgContext = database
        ? { url: database.url, postmasterPid: postgres.postmasterPid }
        : null;
      let pairsCounted = 0;
      const loop = async (scenario, playGames, connections) => {
        const r = await measure(
          api,
          pgContext,
          (w) => (pairsCounted += w.pairs),
          (duration) =>
            measurePlayScore({
              url: info.url,
              arcadeId: info.arcadeId,
              games: playGames,
              playerIds: info.playerIds,
              connections,
              duration,
            }),
        );
        pairsCounted += r.pairs;
        http.rows.push({ scenario, store, connections, ...r });
        log(`${store} ${scenario} ${connections} conns: ${Math.round(r.pairsPerSecond)} pairs/s`);
      };
      for (const connections of options.connections) {
        await loop('play+score 1 board', games.slice(0, 1), connections);
      }
      await loop(`play+score ${GAMES} games`, games, Math.max(...options.connections));

      // After the loops, so the board has its ten leaders in the response, as in real use.
      const readPath = `/arcades/${info.arcadeId}/developergames/${games[0].gameId}`;
      const sample = await fetch(`${info.url}${readPath}`, {
        headers: { authorization: `Bearer ${games[0].token}` },
      });
      const bytes = (await sample.text()).length;
      if (sample.status !== 200) throw new Error(`developergames answered ${sample.status}`);
      for (const connections of options.connections) {
        const r = await measure(api, pgContext, null, (duration) =>
          measureGet({
            url: info.url,
            path: readPath,
            headers: { authorization: `Bearer ${games[0].token}` },
            connections,
            duration,
          }),
        );
        http.rows.push({
          scenario: 'developergames read',
          store,
          connections,
          responseBytes: bytes,
          ...r,
        });
        log(`${store} developergames ${connections} conns: ${Math.round(r.rps)} req/s`);
      }
      http.audits[store] = { ...(await api.call('audit')), pairsCounted };
    } finally {
      await api.close();
      await dropDatabase();
    }
  }
}

/**
 * Runs `work` once for the warm-up (its result goes to `onWarmup`, else is dropped) and once
 * measured, with the CPU split, the API's statement counters and, on Postgres, what the
 * backends were waiting on.
 */
async function measure(target, pgContext, onWarmup, work) {
  if (options.warmup > 0) onWarmup?.(await work(options.warmup));
  const c0 = await target.call('counters');
  const sampler = pgContext ? await startWaitSampler(pgContext.url) : null;
  const pids = { serverPid: target.pid, postmasterPid: pgContext?.postmasterPid ?? null };
  const before = cpuSnapshot(pids);
  const result = await work(options.duration);
  const after = cpuSnapshot(pids);
  const waits = sampler ? await sampler.stop() : null;
  const c1 = await target.call('counters');
  return {
    ...result,
    cpu: cpuShares(before, after),
    statements: (c1.statements ?? 0) - (c0.statements ?? 0),
    transactions: (c1.transactions ?? 0) - (c0.transactions ?? 0),
    ...(waits ? { waits } : {}),
  };
}

/** Samples pg_stat_activity of the bench database every 100 ms: what its backends are doing. */
async function startWaitSampler(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const waits = { samples: 0, states: {} };
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query(
        `SELECT state, wait_event_type, wait_event FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()
           AND backend_type = 'client backend'`,
      );
      waits.samples += 1;
      for (const r of rows) {
        const key =
          r.state === 'active'
            ? r.wait_event
              ? `waiting ${r.wait_event_type}:${r.wait_event}`
              : 'running'
            : r.state;
        waits.states[key] = (waits.states[key] ?? 0) + 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.end();
      return waits;
    },
  };
}

/** The parts that load a big board on each store: ranking and board reads. */
function bigBoardParts() {
  return ['ranking', 'boards'].filter((p) => options.parts.includes(p));
}

/**
 * One database per store for the big-board parts. The board reads run on the ranking part's
 * board when both want the same size (one bulk load, not two), after the ranking measurements.
 */
async function bigBoardOn(store, postgres) {
  let db;
  let done;
  if (store === 'postgres') {
    const database = await createDatabase(postgres.adminUrl, 'coinop_rank');
    db = await openPostgres(database.url, 4);
    done = async () => {
      await db.close();
      await database.drop();
    };
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'coinop-bench-rank-'));
    db = await openPglite(dir);
    done = async () => {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const release = deferred(done);
  const storeLog = (line) => log(`${store}: ${line}`);
  const out = {};
  try {
    await migrate(db);
    let loaded = null;
    if (options.parts.includes('ranking')) {
      log(`ranking on ${store}: loading ${options.rankRows.toLocaleString('en')} bests`);
      loaded = await loadBigBoard(db, options.rankRows, storeLog);
      const result = await rankingBench(db, loaded, {
        samples: options.rankSamples,
        budgetMs: options.rankBudget * 1000,
      });
      log(
        `${store}: countAtOrAbove p99 ${result.countAtOrAbove.p99.toFixed(2)} ms, ` +
          `topLeaders p99 ${result.topLeaders.p99.toFixed(2)} ms`,
      );
      out.ranking = { store, ...result };
    }
    if (options.parts.includes('boards')) {
      if (loaded?.rows !== options.boardPlayers) {
        log(`board reads on ${store}: loading ${options.boardPlayers.toLocaleString('en')} bests`);
        loaded = await loadBigBoard(db, options.boardPlayers, storeLog);
      }
      const result = await boardReadsBench(db, loaded, {
        samples: options.rankSamples,
        budgetMs: options.rankBudget * 1000,
        log: storeLog,
      });
      out.boards = { store, loadSeconds: loaded.loadSeconds, ...result };
    }
    return out;
  } finally {
    await release();
  }
}

async function closeOn(store, postgres) {
  log(`close on ${store}: a round of ${options.closeEntrants.toLocaleString('en')} entrants`);
  let db;
  let done;
  if (store === 'postgres') {
    const database = await createDatabase(postgres.adminUrl, 'coinop_close');
    db = await openPostgres(database.url, 4);
    done = async () => {
      await db.close();
      await database.drop();
    };
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'coinop-bench-close-'));
    db = await openPglite(dir);
    done = async () => {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const release = deferred(done);
  try {
    await migrate(db);
    const result = await closeBench(db, {
      entrants: options.closeEntrants,
      log: (line) => log(`${store} close: ${line}`),
    });
    log(
      `${store}: closed ${result.entrants.toLocaleString('en')} entrants in ` +
        `${result.seconds.toFixed(2)} s, ${result.payoutTransfers} transfers`,
    );
    return { store, ...result };
  } finally {
    await release();
  }
}

/** serve-bench.mjs on one store, as a child process: its JSON lines. */
async function serveBench(store) {
  const rows = await childRows('serve-bench.mjs', store);
  for (const r of rows) {
    log(`${store} serve ${r.scenario} ${r.connections} conns: ${r.rps ?? r.pairsPerSecond}/s`);
  }
  return rows;
}

/** A bench script on one store, as a child process: its JSON lines. */
async function childRows(script, store, extraEnv = {}) {
  log(`${store}: ${script} ${JSON.stringify(extraEnv)}`);
  const child = spawn(process.execPath, [join(here, script)], {
    env: {
      ...process.env,
      BENCH_STORE: store,
      BENCH_DURATION: String(options.duration),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`${script} on ${store} exited ${code}`);
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

/** A bench server child process: `bare` or `api`, talking over IPC. */
async function startTarget(kind, apiOptions) {
  const target = forkTarget(kind === 'api' ? options.serverNodeArgs : []);
  const release = deferred(target.close);
  const info = await target.call(kind === 'bare' ? 'start-bare' : 'start-api', {
    options: apiOptions,
  });
  return { pid: target.pid, info, call: target.call, close: release };
}

try {
  await main();
} catch (error) {
  if (!interrupted) {
    console.error(error);
    process.exitCode = 1;
  }
} finally {
  await cleanup();
}
