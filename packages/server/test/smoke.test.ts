import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';

describe.each(storeVariants())('api boots on %s', (variant) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await buildTestApi(variant);
  });
  afterAll(() => api.close());

  it('answers an unknown route with a problem naming it', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ code: 'route_not_found', message: 'no route GET /nope' });
  });

  it('creates the arcade and the mint on first start', async () => {
    const rows = await api.db.query<{ kind: string }>('SELECT kind FROM accounts ORDER BY kind');
    expect(rows.map((r) => r.kind)).toEqual(['arcade', 'mint']);
  });
});
