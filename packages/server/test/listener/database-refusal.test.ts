import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testConfig } from '../../src/config.js';
import { createFastify } from '../../src/listener/fastify.js';
import { renderErrorsAsProblems } from '../../src/listener/error-handler.js';
import { logDatabaseOutages } from '../../src/listener/database-outages.js';
import { ArcadeMetrics } from '../../src/metrics/arcade-metrics.js';
import { DatabaseAvailability } from '../../src/store/availability.js';
import {
  DatabaseOutOfResources,
  DatabaseUnavailable,
  StatementCancelled,
} from '../../src/store/errors.js';

/**
 * Issue 27: the one error handler tells a database that cannot be reached (503
 * `service_unavailable`, Retry-After, no log line) from a bug (500 `internal_error`, logged in
 * full), also when a service wrapped the store's error, and the metrics count them apart.
 */

interface LogRecord {
  level: number;
  msg: string;
  [field: string]: unknown;
}

describe('the error handler and an unreachable database (issue 27)', () => {
  const records: LogRecord[] = [];
  const metrics = new ArcadeMetrics();
  const availability = new DatabaseAvailability(() => new Promise(() => undefined));
  let app: FastifyInstance;
  const unreachable = () =>
    new DatabaseUnavailable('read ECONNRESET', new Error('read ECONNRESET'));

  beforeAll(async () => {
    app = createFastify(testConfig({ logLevel: 'info' }), {
      name: 'api',
      https: undefined,
      metrics,
      contentSecurityPolicy: null,
      resourcePolicy: 'same-origin',
      pages: false,
      logDestination: {
        write: (line: string) => records.push(JSON.parse(line) as LogRecord),
      },
    });
    renderErrorsAsProblems(app, { availability, retryAfterSeconds: 7 });
    logDatabaseOutages(availability, app.log);
    app.get('/store', async () => {
      const error = unreachable();
      availability.failed(error);
      throw error;
    });
    app.get('/wrapped', async () => {
      throw new Error('reading the board failed', { cause: unreachable() });
    });
    app.get('/full', async () => {
      throw new Error('recording the play failed', {
        cause: new DatabaseOutOfResources('out of memory (SQLSTATE 53200)', undefined),
      });
    });
    app.get('/cancelled', async () => {
      throw new Error('recording the score failed', {
        cause: new StatementCancelled(
          'canceling statement due to statement timeout (SQLSTATE 57014)',
          undefined,
        ),
      });
    });
    app.get('/bug', async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    });
    await app.ready();
  });
  afterAll(async () => {
    availability.close();
    await app.close();
  });

  it('answers 503 with Retry-After and no log line, counts the refusals, and keeps a 500 for bugs', async () => {
    for (const url of ['/store', '/wrapped', '/store']) {
      const res = await app.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 503 });
      expect(res.headers['retry-after']).toBe('7');
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toEqual({
        type: 'https://coinop.dev/errors/service_unavailable',
        title: 'Service unavailable',
        status: 503,
        detail: 'the database cannot be reached; retry in 7 s',
        code: 'service_unavailable',
        message: 'the database cannot be reached; retry in 7 s',
        details: { retryAfterSeconds: 7 },
      });
      // Internals never reach the client.
      expect(res.body).not.toContain('ECONNRESET');
    }
    const bug = await app.inject({ method: 'GET', url: '/bug' });
    expect(bug.statusCode).toBe(500);
    expect(bug.json()).toMatchObject({ code: 'internal_error' });

    // One warning for the outage, one error line with its stack for the bug, nothing per refusal.
    expect(records.filter((r) => r.level >= 40).map((r) => [r.level, r.msg])).toEqual([
      [
        40,
        'the database cannot be reached (read ECONNRESET): requests that need it are answered ' +
          '503 service_unavailable until it answers again',
      ],
      [50, 'unhandled error'],
    ]);
    availability.succeeded();
    expect(records.at(-1)).toMatchObject({
      level: 30,
      msg: expect.stringMatching(
        /^the database answers again after \d+\.\d s; 3 requests were refused meanwhile$/,
      ),
      refusedRequests: 3,
    });

    const { body } = await metrics.render();
    const errors = body.split('\n').filter((l) => l.startsWith('coinop_http_server_errors_total{'));
    expect(errors.sort()).toEqual([
      'coinop_http_server_errors_total{listener="api",code="internal_error"} 1',
      'coinop_http_server_errors_total{listener="api",code="service_unavailable"} 3',
    ]);
  });

  it('answers a database out of resources 503 too, and logs it as an error once a minute at most', async () => {
    const before = records.length;
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: '/full' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('7');
      expect(res.json()).toMatchObject({
        code: 'service_unavailable',
        message: 'the database is out of resources; retry in 7 s',
      });
      expect(res.body).not.toContain('memory');
    }
    expect(records.slice(before).filter((r) => r.level >= 40)).toEqual([
      expect.objectContaining({
        level: 50,
        reason: 'out of memory (SQLSTATE 53200)',
        msg:
          'the database refuses work for lack of a resource (out of memory (SQLSTATE 53200)): ' +
          'requests that need it are answered 503 service_unavailable until it has room again',
      }),
    ]);
  });

  it('answers a statement the database cancelled 503 too, and logs it as a warning once a minute at most', async () => {
    const before = records.length;
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: '/cancelled' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('7');
      expect(res.json()).toMatchObject({
        code: 'service_unavailable',
        message: 'the database did not finish in time; retry in 7 s',
        details: { retryAfterSeconds: 7 },
      });
      expect(res.body).not.toContain('57014');
    }
    expect(records.slice(before).filter((r) => r.level >= 40)).toEqual([
      expect.objectContaining({
        level: 40,
        reason: 'canceling statement due to statement timeout (SQLSTATE 57014)',
        msg:
          'the database cancelled a statement (canceling statement due to statement timeout ' +
          "(SQLSTATE 57014)): a statement_timeout or lock_timeout on coinop's connections " +
          'expired, or it was cancelled by hand; the requests it cancels are answered 503 ' +
          'service_unavailable',
      }),
    ]);
  });
});
