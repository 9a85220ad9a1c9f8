import { createServer, type Server } from 'node:http';

/**
 * The metrics listener (`--metrics-port`): `GET /metrics` in Prometheus' text format, nothing
 * else. Plain node:http, apart from the other listeners: no auth, no overload refusal (a scrape
 * must see an overloaded process), and no request metrics of its own. It carries no secret and
 * takes no input; the operator keeps its port off the public network (docs/operating/metrics.md).
 */

export const METRICS_PATH = '/metrics';

export interface MetricsListener {
  readonly url: string;
  close(): Promise<void>;
}

export async function startMetricsListener(
  host: string,
  port: number,
  render: () => Promise<{ contentType: string; body: string }>,
): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`only GET ${METRICS_PATH}\n`);
      return;
    }
    render().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        response
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`metrics failed: ${(error as Error).message}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${bound}${METRICS_PATH}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
