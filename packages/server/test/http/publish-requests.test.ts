import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameWithTiers } from '@coinop/testkit/arcade';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';

/**
 * Issue 17: a developer could not preview an unpublished game in the arcade ("Game not found")
 * nor ask for it to be published. Preview is for the game's developer and testers only; a
 * publish request is pending until the operator approves (the game is published) or declines it.
 */
describe.each(storeVariants())('preview and publish requests, on %s', (variant) => {
  let s: TestSignin;
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  const developerWallet = newWallet();
  const testerWallet = newWallet();
  let developer: Record<string, string>;
  let tester: Record<string, string>;
  let stranger: Record<string, string>;

  beforeAll(async () => {
    s = await buildTestSignin(variant);
    developer = bearer((await walletSignIn(s.auth, developerWallet)).access_token);
    tester = bearer((await walletSignIn(s.auth, testerWallet)).access_token);
    stranger = bearer((await walletSignIn(s.auth, newWallet())).access_token);
  });
  afterAll(async () => {
    await s.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const api = () => ({
    app: s.api,
    db: s.db,
    clock: s.clock,
    config: s.config,
    close: () => s.close(),
  });
  const unpublishedGame = () =>
    gameWithTiers(api(), {
      costs: [1],
      published: false,
      developerWallet: developerWallet.address,
    });
  const send = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => s.api.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it('shows an unpublished game to its developer and accepted testers only', async () => {
    const game = await unpublishedGame();
    const put = await send(
      'PUT',
      `/developer/games/${game.gameId}/testers/${testerWallet.address}`,
      developer,
    );
    expect(put.statusCode).toBe(200);
    // Issue 27: an invitation shows nothing until the tester accepts it.
    const invited = await send('GET', `/player/games/${game.gameId}`, tester);
    expect(invited.json()).toMatchObject({ code: 'game_not_found' });
    const accepted = await send('PUT', `/player/testing/${game.gameId}`, tester, {
      dailyLimit: '1',
    });
    expect(accepted.json()).toMatchObject({ gameId: game.gameId, state: 'accepted' });

    for (const who of [developer, tester]) {
      const res = await send('GET', `/player/games/${game.gameId}`, who);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: game.gameId,
        name: expect.stringMatching(/^Game /),
        published: false,
      });
    }
    const refused = await send('GET', `/player/games/${game.gameId}`, stranger);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'game_not_found' });
    const anonymous = await send('GET', `/catalog/games/${game.gameId}`, {});
    expect(anonymous.statusCode).toBe(404);
  });

  it('takes a request, keeps one open per game, and publishes on approval', async () => {
    const game = await unpublishedGame();
    const url = `/developer/games/${game.gameId}/publish-requests`;
    const first = await send('POST', url, developer, { note: 'Ready: three tiers, cover set.' });
    expect(first.statusCode).toBe(201);
    const request = first.json() as { requestId: string };
    expect(request).toMatchObject({
      gameId: game.gameId,
      gameName: expect.stringMatching(/^Game /),
      state: 'pending',
      note: 'Ready: three tiers, cover set.',
      declineReason: null,
      decidedAt: null,
    });
    // Asking again while it is pending answers the same request and records nothing.
    const again = await send('POST', url, developer, {});
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(request);
    // Another developer's game is not found, for them.
    const foreign = await send('POST', url, stranger, {});
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'game_not_found' });

    const queue = await send('GET', '/admin/publish-requests?limit=100', admin);
    expect(queue.statusCode).toBe(200);
    const queued = (queue.json() as { requests: { requestId: string }[] }).requests.find(
      (r) => r.requestId === request.requestId,
    );
    expect(queued).toMatchObject({
      state: 'pending',
      game: {
        url: 'https://game.example',
        developerWallet: developerWallet.address.toLowerCase(),
        state: 'unpublished',
        tiers: 1,
      },
    });

    // Two approvals at once publish once and answer alike.
    const approve = `/admin/publish-requests/${request.requestId}/approve`;
    const [a, b] = await Promise.all([send('POST', approve, admin), send('POST', approve, admin)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    expect(a.json()).toMatchObject({ state: 'approved', game: { state: 'published' } });

    const catalog = await send('GET', `/catalog/games/${game.gameId}`, {});
    expect(catalog.statusCode).toBe(200);
    expect(catalog.json()).toMatchObject({ published: true });
    const list = await send('GET', '/catalog/games', {});
    expect((list.json() as { games: { id: string }[] }).games.map((g) => g.id)).toContain(
      game.gameId,
    );

    // Decided is final; a published game takes no new request.
    const decline = await send(
      'POST',
      `/admin/publish-requests/${request.requestId}/decline`,
      admin,
      {
        reason: 'too late',
      },
    );
    expect(decline.statusCode).toBe(409);
    expect(decline.json()).toMatchObject({ code: 'publish_request_decided' });
    const after = await send('POST', url, developer, {});
    expect(after.statusCode).toBe(409);
    expect(after.json()).toMatchObject({ code: 'game_already_published' });
    const history = await send('GET', url, developer);
    expect((history.json() as { requests: unknown[] }).requests).toEqual([
      expect.objectContaining({ requestId: request.requestId, state: 'approved' }),
    ]);
  });

  it('declines with a reason the developer reads, then takes a new request', async () => {
    const game = await unpublishedGame();
    const url = `/developer/games/${game.gameId}/publish-requests`;
    const { requestId } = (await send('POST', url, developer, {})).json() as {
      requestId: string;
    };
    const declined = await send('POST', `/admin/publish-requests/${requestId}/decline`, admin, {
      reason: '  Add a cover image first.  ',
    });
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({
      state: 'declined',
      declineReason: 'Add a cover image first.',
      game: { state: 'unpublished' },
    });
    const [latest] = ((await send('GET', url, developer)).json() as { requests: object[] })
      .requests;
    expect(latest).toMatchObject({
      requestId,
      state: 'declined',
      declineReason: 'Add a cover image first.',
    });
    const approve = await send('POST', `/admin/publish-requests/${requestId}/approve`, admin);
    expect(approve.statusCode).toBe(409);
    expect(approve.json()).toMatchObject({ code: 'publish_request_decided' });
    expect((await send('GET', `/catalog/games/${game.gameId}`, {})).statusCode).toBe(404);

    const second = await send('POST', url, developer, { note: 'Cover added.' });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ state: 'pending', note: 'Cover added.' });
  });

  it('lets the developer withdraw a pending request, once', async () => {
    const game = await unpublishedGame();
    const other = await unpublishedGame();
    const url = `/developer/games/${game.gameId}/publish-requests`;
    const { requestId } = (await send('POST', url, developer, {})).json() as {
      requestId: string;
    };
    // A request named under another game of the same developer is not found there.
    const wrongGame = await send(
      'POST',
      `/developer/games/${other.gameId}/publish-requests/${requestId}/withdraw`,
      developer,
    );
    expect(wrongGame.statusCode).toBe(404);
    expect(wrongGame.json()).toMatchObject({ code: 'publish_request_not_found' });
    const withdraw = `${url}/${requestId}/withdraw`;
    const first = await send('POST', withdraw, developer);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ state: 'withdrawn' });
    const again = await send('POST', withdraw, developer);
    expect(again.json()).toEqual(first.json());
    const approve = await send('POST', `/admin/publish-requests/${requestId}/approve`, admin);
    expect(approve.json()).toMatchObject({ code: 'publish_request_decided' });
    const withdrawn = await send('GET', '/admin/publish-requests?state=withdrawn&limit=100', admin);
    expect(
      (withdrawn.json() as { requests: { requestId: string }[] }).requests.map((r) => r.requestId),
    ).toContain(requestId);
  });

  it('answers a pending request when the operator publishes the game directly', async () => {
    const game = await unpublishedGame();
    const url = `/developer/games/${game.gameId}/publish-requests`;
    const { requestId } = (await send('POST', url, developer, {})).json() as {
      requestId: string;
    };
    expect((await send('POST', `/admin/games/${game.gameId}/publish`, admin)).statusCode).toBe(200);
    const [latest] = ((await send('GET', url, developer)).json() as { requests: object[] })
      .requests;
    expect(latest).toMatchObject({ requestId, state: 'approved' });
  });

  it('refuses bad input naming the field, and records nothing', async () => {
    const game = await unpublishedGame();
    const url = `/developer/games/${game.gameId}/publish-requests`;
    const cases: [string, string, Record<string, string>, object | undefined, string][] = [
      ['POST', url, developer, { note: 'x'.repeat(1001) }, 'note'],
      ['POST', url, developer, { note: 5 }, 'note'],
      ['POST', url, developer, { other: 'x' }, 'other'],
      ['POST', `/admin/publish-requests/${game.gameId}/decline`, admin, { reason: '' }, 'reason'],
      [
        'POST',
        `/admin/publish-requests/${game.gameId}/decline`,
        admin,
        { reason: '   ' },
        'reason',
      ],
      ['POST', `/admin/publish-requests/${game.gameId}/decline`, admin, {}, 'reason'],
      ['POST', '/admin/publish-requests/not-a-uuid/approve', admin, undefined, 'requestId'],
      ['GET', '/admin/publish-requests?state=open', admin, undefined, 'state'],
      ['GET', '/admin/publish-requests?limit=0', admin, undefined, 'limit'],
      ['GET', '/admin/players?search=' + 'x'.repeat(101), admin, undefined, 'search'],
    ];
    for (const [method, where, headers, payload, field] of cases) {
      const res = await send(method as 'POST', where, headers, payload);
      expect(res.statusCode, `${method} ${where} ${JSON.stringify(payload)}`).toBe(400);
      expect((res.json() as { message: string }).message).toContain(field);
    }
    const history = await send('GET', url, developer);
    expect((history.json() as { requests: unknown[] }).requests).toEqual([]);
  });

  it('finds players by id, wallet or name, with their balances', async () => {
    const wallet = newWallet();
    const signedIn = await walletSignIn(s.auth, wallet);
    const mint = await send('POST', '/admin/hst/mints', admin, {
      accountId: signedIn.playerId,
      amount: '12.5',
    });
    expect(mint.statusCode).toBe(201);
    const profile = (await send('GET', `/admin/players/${signedIn.playerId}`, admin)).json() as {
      name: string;
    };
    for (const search of [
      signedIn.playerId,
      wallet.address,
      profile.name.slice(2, 8).toUpperCase(),
    ]) {
      const res = await send('GET', `/admin/players?search=${encodeURIComponent(search)}`, admin);
      expect(res.statusCode).toBe(200);
      const found = (res.json() as { players: { playerId: string }[] }).players;
      expect(
        found.find((p) => p.playerId === signedIn.playerId),
        search,
      ).toMatchObject({
        wallet: wallet.address.toLowerCase(),
        balance: '12.5',
        pending: '0',
      });
    }
    const none = await send('GET', '/admin/players?search=%25_nobody_%25', admin);
    expect((none.json() as { players: unknown[] }).players).toEqual([]);
  });
});
