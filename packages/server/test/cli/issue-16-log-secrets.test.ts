import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { freePort } from '@coinop/testkit/net';
import {
  serve as serveImage,
  startCoverServer,
  type CoverServer,
} from '../fixtures/cover-server.js';
import { pngImage } from '../fixtures/images.js';
import { demoClient, serve, type ServeChild } from './run-cli.js';

/**
 * Issue 16: `npm start` printed the demo client's secret in its log. Now no secret the arcade
 * issues or keeps may reach a log, at any level: a whole session through a real `coinop serve`
 * at `trace` with the access log on issues every kind of credential, and the captured standard
 * output and error are searched for each (and for its obvious encodings).
 */

describe('issue 16: no secret in the logs of a whole session', () => {
  let dataDir: string;
  let covers: CoverServer;
  let server: ServeChild;
  let auth: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-log-secrets-'));
    covers = await startCoverServer({ '/cover.png': serveImage(pngImage(1920, 1080)) });
    const authPort = await freePort();
    server = await serve([
      '--api-port',
      '0',
      '--auth-port',
      String(authPort),
      '--data-dir',
      dataDir,
      '--demo',
      '--allow-private-urls',
      '--log-level',
      'trace',
      '--access-log',
      '--log-format',
      'json',
    ]);
    auth = `http://127.0.0.1:${authPort}`;
  }, 120_000);
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await covers?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('logs none of the secrets it issued', async () => {
    /** Every credential the session was given, by what it is. */
    const secrets = new Map<string, string>();
    const keep = (name: string, value: unknown) => {
      expect(typeof value, name).toBe('string');
      secrets.set(name, value as string);
      return value as string;
    };
    const call = async (
      base: string,
      method: string,
      path: string,
      { token, body, headers }: { token?: string; body?: unknown; headers?: object } = {},
    ) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> };
    };
    const api = (method: string, path: string, options?: Parameters<typeof call>[3]) =>
      call(server.url, method, path, options);

    // What the arcade keeps in its data directory.
    const adminToken = keep(
      'admin token',
      (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim(),
    );
    keep('secrets key', (await readFile(join(dataDir, 'secrets-key'), 'utf8')).trim());
    keep('demo client secret', (await demoClient(dataDir)).clientSecret);

    // A player signs in with a wallet (a web session token), renews it, and takes test HST.
    const wallet = privateKeyToAccount(generatePrivateKey());
    const challenge = await call(auth, 'POST', '/wallet/challenge', {
      body: { address: wallet.address },
    });
    expect(challenge.status).toBe(200);
    const message = challenge.body['message'] as string;
    const verified = await call(auth, 'POST', '/wallet/verify', {
      body: { message, signature: await wallet.signMessage({ message }) },
    });
    expect(verified.status).toBe(200);
    const session = keep('web session token', verified.body['access_token']);
    const playerId = verified.body['playerId'] as string;
    const renewed = await call(auth, 'POST', '/session/renew', { token: session });
    expect(renewed.status).toBe(200);
    keep('renewed session token', renewed.body['access_token']);
    expect((await api('POST', '/player/faucet', { token: session })).status).toBe(200);

    // The same wallet is a developer: an API key from the portal, and one from the admin API.
    const key = await api('POST', '/developer/apikey', { token: session });
    expect(key.status).toBe(201);
    const apiKey = keep('API key (portal)', key.body['apiKey']);
    const adminKey = await api('POST', '/admin/developers', {
      token: adminToken,
      body: { wallet: wallet.address },
    });
    expect(adminKey.status).toBe(201);
    keep('API key (admin)', adminKey.body['apiKey']);

    // A game registered with the API key, published by the operator, with clients.
    const created = await api('POST', '/game/create', {
      headers: { 'api-key': apiKey },
      body: {
        name: 'Secret Keeper',
        description: 'x',
        coverUrl: covers.url('/cover.png'),
        scoreDisplay: 'NORMAL',
      },
    });
    expect(created.status).toBe(201);
    const gameId = created.body['id'] as string;
    const leaderboardId = (created.body['leaderboards'] as { id: string }[])[0]!.id;
    expect(
      (await api('POST', `/admin/games/${gameId}/publish`, { token: adminToken })).status,
    ).toBe(200);
    const portalClient = await api('POST', `/developer/games/${gameId}/clients`, {
      token: session,
    });
    expect(portalClient.status).toBe(201);
    keep('client secret (portal)', portalClient.body['clientSecret']);
    const rotated = await api(
      'POST',
      `/developer/games/${gameId}/clients/${portalClient.body['clientId']}/rotate`,
      { token: session },
    );
    expect(rotated.status).toBe(200);
    keep('client secret (rotated)', rotated.body['clientSecret']);
    const adminClient = await api('POST', `/admin/games/${gameId}/clients`, { token: adminToken });
    expect(adminClient.status).toBe(201);
    const clientSecret = keep('client secret (admin)', adminClient.body['clientSecret']);

    // The game server: a write token, then a play and its score.
    const issued = await api('POST', '/oauth/writetoken', {
      body: { client_id: adminClient.body['clientId'], client_secret: clientSecret },
    });
    expect(issued.status).toBe(200);
    const writeToken = keep('write token', issued.body['access_token']);
    const base = `/arcades/${issued.body['arcadeId']}/games/${gameId}`;
    const play = await api('POST', `${base}/play`, {
      token: writeToken,
      body: { playerId, leaderboardId },
    });
    expect(play.status).toBe(200);
    const score = await api('POST', `${base}/score`, {
      token: writeToken,
      body: { playId: play.body['id'], leaderboardId, score: 7 },
    });
    expect(score.status).toBe(200);

    // A desktop game signs in through a CLI login the player approves.
    const login = await call(auth, 'POST', '/cli', { body: { description: 'log test', gameId } });
    expect(login.status).toBe(200);
    const pollToken = keep('CLI login poll token', login.body['token']);
    const requestorId = login.body['requestorId'] as string;
    const approved = await call(auth, 'POST', `/cli/${requestorId}/approve`, {
      token: session,
      body: { userCode: login.body['userCode'] },
    });
    expect(approved.status).toBe(200);
    const collected = await call(auth, 'GET', `/cli/${requestorId}`, { token: pollToken });
    expect(collected.status).toBe(200);
    keep('game token (CLI login)', collected.body['access_token']);

    // The operator mints a player token for a test.
    const minted = await api('POST', `/admin/players/${playerId}/token`, {
      token: adminToken,
      body: {},
    });
    expect(minted.status).toBe(201);
    keep('player token (admin)', minted.body['access_token'] ?? minted.body['token']);

    // Stop, so every buffered line is written, then read all of it.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const logs = `${server.stdout()}\n${server.stderr()}`;
    // The session was logged: the access log saw these requests.
    expect(logs).toContain('"url":"/oauth/writetoken"');
    expect(logs).toContain('"msg":"request completed"');

    const found: string[] = [];
    for (const [name, secret] of secrets) {
      const forms = new Map<string, string>([
        ['as issued', secret],
        ['as a bearer header', `Bearer ${secret}`],
        ['in base64', Buffer.from(secret).toString('base64')],
        ['in base64url', Buffer.from(secret).toString('base64url')],
        ['URL-encoded', encodeURIComponent(secret)],
      ]);
      // The secret part of a `<prefix>.<secret>` key, and a JWT's signature.
      const tail = secret.split('.').at(-1);
      if (tail !== undefined && tail !== secret && tail.length >= 16)
        forms.set('its last part', tail);
      for (const [form, value] of forms) {
        if (logs.includes(value)) found.push(`${name} (${form})`);
      }
    }
    expect(found, 'secrets found in the logs').toEqual([]);
    expect(secrets.size).toBe(14);
  });
});
