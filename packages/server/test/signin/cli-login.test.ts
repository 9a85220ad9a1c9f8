import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { storeVariants } from '@coinop/testkit/db';
import {
  buildTestSignin,
  decide,
  newWallet,
  poll,
  startLogin,
  walletSignIn,
  type TestSignin,
} from '@coinop/testkit/signin';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

describe.each(storeVariants())('CLI login flow on %s', (variant) => {
  let s: TestSignin;
  beforeAll(async () => {
    s = await buildTestSignin(variant);
  });
  afterAll(() => s.close());

  const count = async (sql: string) =>
    (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`))[0]!.n;

  it('starts, waits, is approved by a signed-in wallet, and hands the token out once', async () => {
    const start = await startLogin(s.auth, 'Pixel 8 (Android 15)');
    expect(start).toEqual({
      browserUrl: `/cli/login?requestorId=${start.requestorId}&code=${start.userCode}`,
      requestorId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      cliUrl: '/cli',
      token: expect.any(String),
      interval: 5,
      expires_in: 600,
      userCode: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
    });

    const pending = await poll(s.auth, start.requestorId, start.token);
    expect(pending.statusCode).toBe(400);
    expect(pending.headers['content-type']).toContain('application/problem+json');
    expect(pending.json()).toMatchObject({
      code: 'authorization_pending',
      error: 'authorization_pending',
      message: `login request ${start.requestorId} is waiting for the player to approve it in the browser`,
    });

    // Polling again before `interval` seconds have passed is too fast (RFC 8628 §3.5).
    s.clock.advance(1000);
    const fast = await poll(s.auth, start.requestorId, start.token);
    expect(fast.statusCode).toBe(429);
    expect(fast.json()).toMatchObject({
      code: 'slow_down',
      error: 'slow_down',
      message: `poll login request ${start.requestorId} at most every 5 seconds`,
    });

    const info = await s.auth.inject({
      method: 'GET',
      url: `/cli/${start.requestorId}/info?code=${start.userCode}`,
    });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual({
      requestorId: start.requestorId,
      description: 'Pixel 8 (Android 15)',
      game: null,
      userCode: start.userCode,
      status: 'pending',
      expiresAt: new Date(s.clock.now().getTime() - 1000 + 600_000).toISOString(),
    });

    const wallet = newWallet();
    const session = await walletSignIn(s.auth, wallet);
    // The code is accepted however the player types it.
    const typed = start.userCode.toLowerCase().replace('-', ' ');
    const approved = await decide(
      s.auth,
      'approve',
      start.requestorId,
      typed,
      session.access_token,
    );
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toEqual({ status: 'approved', grantedDailyLimit: null });

    s.clock.advance(5000);
    const got = await poll(s.auth, start.requestorId, start.token);
    expect(got.statusCode).toBe(200);
    expect(got.headers['cache-control']).toBe('no-store');
    const { access_token } = got.json<{ access_token: string }>();
    expect(Object.keys(got.json())).toEqual(['access_token']);

    const header = decodeProtectedHeader(access_token);
    expect(header).toMatchObject({ alg: 'RS256', typ: 'JWT', kid: expect.any(String) });
    const jwks = (await s.auth.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const ns = s.config.claimsNamespace;
    const { payload } = await jwtVerify(access_token, createLocalJWKSet(jwks), {
      issuer: `https://${s.config.authIssuer}/`,
      currentDate: s.clock.now(),
    });
    expect(payload).toMatchObject({
      sub: session.playerId,
      [`https://${ns}/playerId`]: session.playerId,
      [`https://${ns}/displayName`]: `${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`,
    });
    expect(payload.exp! - payload.iat!).toBe(86_400);

    s.clock.advance(5000);
    const again = await poll(s.auth, start.requestorId, start.token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'expired_token',
      error: 'expired_token',
      message: `the token of login request ${start.requestorId} was already handed out`,
    });
    const shown = await s.auth.inject({
      method: 'GET',
      url: `/cli/${start.requestorId}/info?code=${start.userCode}`,
    });
    expect(shown.json().status).toBe('approved');
  });

  it('answers access_denied once the player rejects, and expired_token after the expiry', async () => {
    const session = await walletSignIn(s.auth, newWallet());
    const rejected = await startLogin(s.auth);
    const no = await decide(
      s.auth,
      'reject',
      rejected.requestorId,
      rejected.userCode,
      session.access_token,
    );
    expect(no.statusCode).toBe(200);
    expect(no.json()).toEqual({ status: 'denied', grantedDailyLimit: null });
    const denied = await poll(s.auth, rejected.requestorId, rejected.token);
    expect(denied.statusCode).toBe(400);
    expect(denied.json()).toMatchObject({ code: 'access_denied', error: 'access_denied' });
    // A decided request cannot be decided the other way.
    const late = await decide(
      s.auth,
      'approve',
      rejected.requestorId,
      rejected.userCode,
      session.access_token,
    );
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'login_request_decided',
      message: `login request ${rejected.requestorId} was already rejected`,
    });

    const slow = await startLogin(s.auth);
    s.clock.advance(600_000);
    const expired = await poll(s.auth, slow.requestorId, slow.token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({
      code: 'expired_token',
      error: 'expired_token',
      message: `login request ${slow.requestorId} has expired`,
    });
    const tooLate = await decide(
      s.auth,
      'approve',
      slow.requestorId,
      slow.userCode,
      session.access_token,
    );
    expect(tooLate.statusCode).toBe(400);
    expect(tooLate.json()).toMatchObject({ code: 'expired_token' });
    const info = await s.auth.inject({
      method: 'GET',
      url: `/cli/${slow.requestorId}/info?code=${slow.userCode}`,
    });
    expect(info.json().status).toBe('expired');
  });

  it('refuses a polling token of another request, a player token, and no token', async () => {
    const mine = await startLogin(s.auth);
    const theirs = await startLogin(s.auth);
    const before = await s.db.query('SELECT * FROM cli_logins ORDER BY requestor_id');

    const crossed = await poll(s.auth, mine.requestorId, theirs.token);
    expect(crossed.statusCode).toBe(401);
    expect(crossed.json()).toMatchObject({
      code: 'invalid_poll_token',
      error: 'invalid_client',
      message: `the bearer token polls login request ${theirs.requestorId}, not ${mine.requestorId}`,
    });

    const session = await walletSignIn(s.auth, newWallet());
    const player = await poll(s.auth, mine.requestorId, session.access_token);
    expect(player.statusCode).toBe(401);
    expect(player.json()).toMatchObject({
      code: 'invalid_poll_token',
      message:
        'the bearer token is not a polling token from POST /cli (a player token does not poll)',
    });

    const unknown = await poll(s.auth, UNKNOWN_ID, mine.token);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('invalid_poll_token');

    const none = await s.auth.inject({ method: 'GET', url: `/cli/${mine.requestorId}` });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'missing_bearer_token', error: 'invalid_client' });

    // Nothing was recorded by the refused polls (not even the time of a poll).
    expect(await s.db.query('SELECT * FROM cli_logins ORDER BY requestor_id')).toEqual(before);
  });

  it('needs a valid player token and the matching user code to approve', async () => {
    const start = await startLogin(s.auth);
    const session = await walletSignIn(s.auth, newWallet());
    const pendingBefore = await count("cli_logins WHERE status = 'pending'");

    const noToken = await s.auth.inject({
      method: 'POST',
      url: `/cli/${start.requestorId}/approve`,
      payload: { userCode: start.userCode },
    });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json().code).toBe('missing_bearer_token');

    const pollToken = await decide(
      s.auth,
      'approve',
      start.requestorId,
      start.userCode,
      start.token,
    );
    expect(pollToken.statusCode).toBe(401);
    expect(pollToken.json()).toMatchObject({
      code: 'invalid_player_token',
      details: { reason: 'algorithm' },
    });

    const wrongCode = await decide(
      s.auth,
      'approve',
      start.requestorId,
      'BBBB-BBBB',
      session.access_token,
    );
    expect(wrongCode.statusCode).toBe(404);
    expect(wrongCode.json()).toMatchObject({
      code: 'login_request_not_found',
      message: `no login request ${start.requestorId} with this code: start again from your game`,
    });
    const unknown = await decide(
      s.auth,
      'approve',
      UNKNOWN_ID,
      start.userCode,
      session.access_token,
    );
    expect(unknown.statusCode).toBe(404);
    const info = await s.auth.inject({
      method: 'GET',
      url: `/cli/${start.requestorId}/info?code=BBBBBBBB`,
    });
    expect(info.statusCode).toBe(404);
    expect(info.json().code).toBe('login_request_not_found');
    expect(await count("cli_logins WHERE status = 'pending'")).toBe(pendingBefore);
  });

  it('validates the start request', async () => {
    const empty = await s.auth.inject({
      method: 'POST',
      url: '/cli',
      payload: { description: '' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      code: 'validation_failed',
      details: { field: 'description' },
    });
    const missing = await s.auth.inject({ method: 'POST', url: '/cli', payload: {} });
    expect(missing.json()).toMatchObject({
      code: 'validation_failed',
      details: { field: 'description' },
    });
    const badId = await s.auth.inject({
      method: 'GET',
      url: '/cli/not-a-uuid',
      headers: { authorization: 'Bearer x' },
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({
      code: 'validation_failed',
      details: { field: 'requestorId' },
    });
  });

  it('decodes as the haste-sdk example CLI expects (it reads claims with jwt-decode)', async () => {
    const start = await startLogin(s.auth);
    const session = await walletSignIn(s.auth, newWallet());
    await decide(s.auth, 'approve', start.requestorId, start.userCode, session.access_token);
    const got = await poll(s.auth, start.requestorId, start.token);
    const claims = decodeJwt(got.json().access_token);
    expect(claims.iss).toBe(`https://${s.config.authIssuer}/`);
  });
});
