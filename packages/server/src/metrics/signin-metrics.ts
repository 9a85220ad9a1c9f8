import type { FastifyInstance } from 'fastify';
import type { ArcadeMetrics } from './arcade-metrics.js';

/** The sign-in service's steps, by route: each flow's step name when it succeeds. */
const STEPS: Readonly<Record<string, { flow: 'wallet' | 'cli_login'; step: string }>> = {
  'POST /wallet/challenge': { flow: 'wallet', step: 'challenged' },
  'POST /wallet/verify': { flow: 'wallet', step: 'signed_in' },
  'POST /session/renew': { flow: 'wallet', step: 'renewed' },
  'POST /cli': { flow: 'cli_login', step: 'started' },
  'GET /cli/:requestorId': { flow: 'cli_login', step: 'token_issued' },
  'POST /cli/:requestorId/approve': { flow: 'cli_login', step: 'approved' },
  'POST /cli/:requestorId/reject': { flow: 'cli_login', step: 'rejected' },
};

/**
 * Counts sign-in and CLI-login outcomes in `coinop_signins_total`: the step when it succeeds,
 * else the problem's code (`invalid_signature`, `authorization_pending`, `rate_limited`, …).
 */
export function observeSignIns(app: FastifyInstance, metrics: ArcadeMetrics): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const route = STEPS[`${request.method} ${request.routeOptions.url ?? ''}`];
    if (route === undefined) return payload;
    const outcome = reply.statusCode < 400 ? route.step : problemCode(payload, reply.statusCode);
    metrics.signIn(route.flow, outcome);
    return payload;
  });
}

function problemCode(payload: unknown, statusCode: number): string {
  if (typeof payload === 'string') {
    try {
      const body = JSON.parse(payload) as { code?: unknown };
      if (typeof body.code === 'string' && /^[a-z0-9_]{1,64}$/.test(body.code)) return body.code;
    } catch {
      // Not a problem body: fall back to the status.
    }
  }
  return `http_${statusCode}`;
}
