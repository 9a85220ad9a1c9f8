import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';
import { startMetricsListener } from './metrics/metrics-listener.js';

/**
 * `coinop serve --workers N`: N processes serving the same ports through Node's cluster (the
 * primary accepts connections and hands them to the workers in turn; each worker has its own
 * database pool, caches and group commits, as separate API processes on one Postgres would).
 * The first worker starts alone — migrations, generated files, the demo seed — and the others
 * once it serves. A worker that dies is replaced; the primary itself opens nothing.
 */

/** What the primary tells a worker through its environment. */
const ROLE_ENV = 'COINOP_CLUSTER_ROLE';
/** A worker's message to the primary once it serves. */
const READY = 'coinop:ready';
/** A worker dying sooner than this after its start is not replaced: it would only die again. */
const MIN_UPTIME_MS = 5_000;

/** In a worker: whether it is the one that seeds (the first), and a call to say it serves. */
export function clusterWorker(): { readonly seeds: boolean; ready(): void } | null {
  if (!cluster.isWorker) return null;
  return {
    seeds: process.env[ROLE_ENV] === 'first',
    ready: () => process.send?.(READY),
  };
}

/**
 * Runs the primary: starts the workers, replaces those that die, and on SIGINT or SIGTERM stops
 * them all (each closes its listeners, then its pool) before exiting. Resolves once all serve.
 */
export async function runClusterPrimary(
  config: Config,
  log: (line: string) => void,
): Promise<void> {
  let stopping = false;
  const started = new Map<Worker, number>();
  const fork = (role: 'first' | 'joiner'): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork({ [ROLE_ENV]: role });
      started.set(worker, Date.now());
      const onExit = (code: number | null) =>
        reject(new Error(`worker ${worker.id} exited (${code ?? 'signal'}) before serving`));
      worker.once('exit', onExit);
      worker.on('message', (message: unknown) => {
        if (message !== READY) return;
        worker.off('exit', onExit);
        resolve(worker);
      });
    });

  if (config.metricsPort !== null) {
    // Each worker keeps its own registry; a scrape asks every worker and sums (prom-client's
    // AggregatorRegistry), so one port shows the whole cluster.
    const { AggregatorRegistry } = await import('prom-client');
    const aggregator = new AggregatorRegistry();
    const metrics = await startMetricsListener(config.host, config.metricsPort, async () => ({
      contentType: aggregator.contentType,
      body: await aggregator.clusterMetrics(),
    }));
    log(`coinop: metrics of every worker at ${metrics.url}`);
  }
  const first = await fork('first');
  const rest = await Promise.all(Array.from({ length: config.workers - 1 }, () => fork('joiner')));
  log(
    `coinop: ${[first, ...rest].length} workers serving (pids ${[first, ...rest].map((w) => w.process.pid).join(', ')})`,
  );

  cluster.on('exit', (worker, code, signal) => {
    const uptime = Date.now() - (started.get(worker) ?? 0);
    started.delete(worker);
    if (stopping) {
      if (started.size === 0) process.exit(0);
      return;
    }
    if (uptime < MIN_UPTIME_MS) {
      log(
        `coinop: worker ${worker.process.pid} died ${signal ?? `with code ${code}`} right after starting; stopping`,
      );
      stop('SIGTERM');
      return;
    }
    log(
      `coinop: worker ${worker.process.pid} died ${signal ?? `with code ${code}`}; starting another`,
    );
    fork('joiner').then(
      (replacement) => log(`coinop: worker ${replacement.process.pid} serving in its place`),
      (error: unknown) => log(`coinop: ${(error as Error).message}`),
    );
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`coinop: ${signal}: stopping ${started.size} workers`);
    if (started.size === 0) process.exit(0);
    for (const worker of started.keys()) worker.process.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
