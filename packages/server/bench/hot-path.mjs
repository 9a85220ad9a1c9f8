// Diagnosis driver for the play+score hot path: seeds a Postgres database that it KEEPS (so its
// statements can be EXPLAINed afterwards), runs the bench's play+score loop against the compiled
// API for a while, and prints pairs/s. With pg_stat_statements loaded on that server, reset it
// before and read it after. BENCH_DROP_INDEXES (comma-separated names) drops those indexes once
// the database is seeded, to measure what an index costs the loop. BENCH_SERVER_NODE_ARGS as for run.mjs (e.g. "--cpu-prof
// --cpu-prof-dir=/tmp/prof"). Usage:
//   node packages/server/bench/hot-path.mjs postgres://…/coinop_prof [seconds] [connections] [store]
import { cpuSnapshot } from './cpu.mjs';
import { measurePlayScore } from './load.mjs';
import { forkTarget, serverNodeArgs, writeTokens } from './target.mjs';

const [url, seconds = '10', connections = '10', store = 'postgres'] = process.argv.slice(2);
const api = forkTarget(serverNodeArgs);
try {
  const info = await api.call('start-api', {
    options: { store, postgresUrl: url, games: 4, players: 2000, fundHst: 1_000_000 },
  });
  const games = await writeTokens(info.url, info.games);
  const dropped = (process.env['BENCH_DROP_INDEXES'] ?? '').split(',').filter(Boolean);
  if (dropped.length > 0) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (const name of dropped)
      await client.query(`DROP INDEX IF EXISTS ${client.escapeIdentifier(name)}`);
    await client.end();
  }
  // CPU per pair is steadier than pairs/s on a shared machine. BENCH_POSTMASTER_PID: the
  // Postgres server's postmaster, when it runs on this machine.
  const pids = { serverPid: api.pid, postmasterPid: Number(process.env['BENCH_POSTMASTER_PID']) };
  const before = cpuSnapshot(pids);
  const r = await measurePlayScore({
    url: info.url,
    arcadeId: info.arcadeId,
    games: games.slice(0, 1),
    playerIds: info.playerIds,
    connections: Number(connections),
    duration: Number(seconds),
  });
  const after = cpuSnapshot(pids);
  const audit = await api.call('audit');
  // Microseconds of CPU per pair (a tick is 10 ms).
  const perPair = (ticks) => Math.round((ticks * 10_000) / r.pairs);
  let postgresTicks = 0;
  for (const [pid, t] of after.postgres) postgresTicks += t - (before.postgres.get(pid) ?? 0);
  console.log(
    JSON.stringify({
      pairsPerSecond: Math.round(r.pairsPerSecond),
      playP50: r.play.p50,
      scoreP50: r.score.p50,
      cpuUsPerPair: {
        api: perPair(after.server - before.server),
        postgres: perPair(postgresTicks),
        loadgen: perPair(after.loadgen - before.loadgen),
      },
      non2xx: r.non2xx,
      errors: r.errors,
      balanced: audit.balanced,
      scored: audit.playsScored,
    }),
  );
} finally {
  await api.close();
}
