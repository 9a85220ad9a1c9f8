import { buildTestApi } from '@coinop/testkit/app';
import { buildTestSignin } from '@coinop/testkit/signin';
import { testConfig } from '../../src/config.js';
import { buildWeb } from '../../src/web/app.js';
import { storeVariants } from '@coinop/testkit/db';
import { describe, expect, it } from 'vitest';

/** Liveness and readiness, as a load balancer reads them (issue 16). */
describe.each(storeVariants())('health on %s', (variant) => {
  it('is live, and ready only with exactly the migrations this code knows', async () => {
    const api = await buildTestApi(variant);
    try {
      const live = await api.app.inject({ method: 'GET', url: '/healthz' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
      const ready = await api.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', migrations: 'current' },
      });

      await api.db.query(
        "INSERT INTO schemaversion (version, name, md5) VALUES (999, '999_from_the_future.sql', 'x')",
      );
      const newer = await api.app.inject({ method: 'GET', url: '/readyz' });
      // A rolling upgrade under way: the old process keeps serving until it is replaced.
      expect(newer.statusCode).toBe(200);
      expect(newer.json()).toEqual({
        status: 'ready',
        checks: {
          database: 'ok',
          migrations:
            'newer than this code (a newer coinop migrated it; replace this process): ' +
            '999_from_the_future.sql',
        },
      });
      await api.db.query('DELETE FROM schemaversion WHERE version IN (999, 14)');
      const older = await api.app.inject({ method: 'GET', url: '/readyz' });
      expect(older.statusCode).toBe(503);
      expect(older.json()).toMatchObject({
        checks: { migrations: 'missing: 014_chain_play_locks.sql' },
      });
    } finally {
      await api.close();
    }
  });
});

describe('health on the other listeners', () => {
  it('answers on the sign-in service (with its database) and the web listener', async () => {
    const s = await buildTestSignin('pglite');
    const web = await buildWeb(testConfig(), { apiUrl: null, authUrl: null });
    try {
      const ready = await s.auth.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'ready' });
      expect((await web.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({
        status: 'ok',
      });
      // The web listener serves pages that need no database and forwards to the listeners that
      // have one: ready while it answers, and its checks say it did not look (operator review:
      // its "database": "ok" read as a database check it never made).
      const webReady = await web.inject({ method: 'GET', url: '/readyz' });
      expect(webReady.statusCode).toBe(200);
      expect(webReady.json()).toEqual({
        status: 'ready',
        checks: {
          database:
            "not checked: the web listener has none (probe the API's and the sign-in service's /readyz)",
          migrations: 'not checked',
        },
      });
    } finally {
      await web.close();
      await s.close();
    }
  });
});
