import type { FastifyInstance } from 'fastify';
import type { ArcadeMetrics } from './arcade-metrics.js';

/**
 * Records every answered request of a listener in `coinop_http_request_duration_seconds`, by its
 * route pattern (so ids in paths never become labels); a request no route matched is `unmatched`.
 * A 5xx is counted in `coinop_http_server_errors_total` too, by its problem's code, so a bug
 * (`internal_error`) is told apart from a refusal (`service_unavailable`, `overloaded`).
 */
export function observeRequests(app: FastifyInstance, listener: string, metrics: ArcadeMetrics) {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(
      listener,
      request.routeOptions.url ?? 'unmatched',
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    if (reply.statusCode >= 500) metrics.serverError(listener, reply.problemCode ?? 'none');
    done();
  });
}
