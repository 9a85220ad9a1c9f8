import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { ArcadeMetrics } from './metrics/arcade-metrics.js';
import { startMetricsListener, type MetricsListener } from './metrics/metrics-listener.js';
import { buildWeb, type WebDeps } from './web/app.js';

/** The listeners of `coinop serve` (main.ts): how each listens, the web app's, the metrics'. */

/** One HTTP listener of the process: the API, the sign-in service or the web app. */
export interface Listener {
  readonly name: string;
  readonly app: FastifyInstance;
  readonly port: number;
}

/**
 * Listens on `host`; its URL. The start banner names every address once: Fastify's own line
 * would say it again, so the listener logs only warnings while it starts listening.
 */
export async function listenQuietly(listener: Listener, host: string): Promise<string> {
  const level = listener.app.log.level;
  listener.app.log.level = level === 'silent' ? level : 'warn';
  try {
    return await listener.app.listen({
      host,
      port: listener.port,
      listenTextResolver: (address) => `coinop ${listener.name} listening on ${address}`,
    });
  } finally {
    listener.app.log.level = level;
  }
}

/**
 * Builds the web listener, forwarding to the listeners in `urls`, adds it to `listeners` and
 * listens; its app.
 */
export async function startWebListener(
  config: Config,
  listeners: Listener[],
  urls: Record<string, string>,
  deps: Omit<WebDeps, 'apiUrl' | 'authUrl'>,
): Promise<FastifyInstance> {
  const web = await buildWeb(config, {
    apiUrl: urls['api'] ?? null,
    authUrl: urls['auth'] ?? null,
    ...deps,
  });
  const listener = { name: 'web', app: web, port: config.webPort };
  listeners.push(listener);
  urls[listener.name] = await listenQuietly(listener, config.host);
  return web;
}

/**
 * Serves the metrics on `port`: a listener of this process's own, or, for a worker of a cluster,
 * its registry for the primary to gather (null). Adds the metrics URL to `urls` when it is known.
 */
export async function serveMetrics(
  config: Config,
  metrics: ArcadeMetrics,
  port: number,
  { clusterWorker, urls }: { clusterWorker: boolean; urls: Record<string, string> },
): Promise<MetricsListener | null> {
  if (clusterWorker) {
    // The primary answers the scrape with every worker's metrics summed.
    const { AggregatorRegistry } = await import('prom-client');
    AggregatorRegistry.setRegistries([metrics.registry]);
    new AggregatorRegistry();
    // The primary listens there; a port it picked (0) is in its own log line.
    if (port !== 0) {
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      urls['metrics'] = `http://${host}:${port}/metrics`;
    }
    return null;
  }
  const listener = await startMetricsListener(config.host, port, () => metrics.render());
  urls['metrics'] = listener.url;
  return listener;
}
