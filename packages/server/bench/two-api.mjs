// Diagnosis driver: two API processes of one arcade on one Postgres, as an operator scales out.
// The first seeds a fresh database, the second joins it; the play+score loop on one board runs
// against both at once (half the connections each, each process its own half of the players),
// then the ledger and the count tree are audited. Prints pairs/s per process and in all, and
// how many score batches lost a race and ran again under locks (transactions opened). With
// BENCH_SHARED_PLAYERS=1 both processes take the same players in the same order, so their
// scores race for the same bests: a stress of the checked write, not a throughput figure.
//   node packages/server/bench/two-api.mjs postgres://…/coinop_two [seconds] [connections]
import { measurePlayScore } from './load.mjs';
import { forkTarget, serverNodeArgs, writeTokens } from './target.mjs';

const [url, seconds = '10', connections = '20'] = process.argv.slice(2);
const a = forkTarget(serverNodeArgs);
const b = forkTarget(serverNodeArgs);
try {
  const seeded = await a.call('start-api', {
    options: { store: 'postgres', postgresUrl: url, games: 4, players: 2000, fundHst: 1_000_000 },
  });
  const joined = await b.call('start-api', {
    options: { store: 'postgres', postgresUrl: url, seed: false },
  });
  const half = Math.max(1, Math.floor(Number(connections) / 2));
  const loop = async (target, info, parity) =>
    measurePlayScore({
      url: info.url,
      arcadeId: seeded.arcadeId,
      games: (await writeTokens(info.url, seeded.games)).slice(0, 1),
      playerIds: process.env.BENCH_SHARED_PLAYERS
        ? seeded.playerIds
        : seeded.playerIds.filter((_, i) => i % 2 === parity),
      connections: half,
      duration: Number(seconds),
    });
  const [ra, rb] = await Promise.all([loop(a, seeded, 0), loop(b, joined, 1)]);
  const [ca, cb] = await Promise.all([a.call('counters'), b.call('counters')]);
  const audit = await a.call('audit');
  console.log(
    JSON.stringify({
      pairsPerSecond: Math.round(ra.pairsPerSecond + rb.pairsPerSecond),
      perProcess: [Math.round(ra.pairsPerSecond), Math.round(rb.pairsPerSecond)],
      scoreP50: [ra.score.p50, rb.score.p50],
      non2xx: ra.non2xx + rb.non2xx,
      errors: ra.errors + rb.errors,
      lockedReruns: ca.transactions + cb.transactions,
      balanced: audit.balanced,
      rankTreeMismatches: audit.rankTreeMismatches,
      scored: audit.playsScored,
    }),
  );
} finally {
  await Promise.all([a.close(), b.close()]);
}
