import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { testConfig, type Config } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { newWallet } from '@coinop/testkit/signin';
import { runCli } from '../cli/run-cli.js';

/** Signs a wallet in over HTTP, as the approval page does. */
async function signIn(authUrl: string): Promise<{ access_token: string; playerId: string }> {
  const wallet = newWallet();
  const post = async (path: string, body: object) => {
    const res = await fetch(`${authUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return res.json() as Promise<Record<string, string>>;
  };
  const { message } = await post('/wallet/challenge', { address: wallet.address });
  const signature = await wallet.signMessage({ message: message! });
  return (await post('/wallet/verify', { message, signature })) as {
    access_token: string;
    playerId: string;
  };
}

describe('coinop serve with the sign-in listener (PGlite on disk)', () => {
  let dataDir: string;
  let config: Config;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-signin-'));
    config = testConfig({ apiPort: 0, dataDir, adminToken: 'signin-admin' });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const verify = (token: string, authUrl: string) =>
    jwtVerify(token, createRemoteJWKSet(new URL(`${authUrl}/.well-known/jwks.json`)), {
      issuer: `https://${config.authIssuer}/`,
    });

  it('starts both listeners by default; tokens survive a restart and a rotation', async () => {
    server = await startServer(config);
    expect(Object.keys(server.urls).sort()).toEqual(['api', 'auth', 'web']);
    expect(server.url).toBe(server.urls['api']);
    const session = await signIn(server.urls['auth']!);
    const kid = decodeProtectedHeader(session.access_token).kid;

    await server.close();
    server = await startServer(config);
    const authUrl = server.urls['auth']!;
    expect((await verify(session.access_token, authUrl)).payload.sub).toBe(session.playerId);

    const admin = ['--server', server.url, '--admin-token', 'signin-admin'];
    const rotated = await runCli(['admin', 'keys', 'rotate', ...admin]);
    expect(rotated).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(rotated.stdout)).toEqual({ kid: expect.any(String), retiredKid: kid });
    expect((await verify(session.access_token, authUrl)).payload.sub).toBe(session.playerId);

    const minted = await runCli(
      ['admin', 'player', 'token', '--player', session.playerId, '--ttl', '120'].concat(admin),
    );
    expect(minted).toMatchObject({ code: 0, stderr: '' });
    const { access_token } = JSON.parse(minted.stdout) as { access_token: string };
    const { payload, protectedHeader } = await verify(access_token, authUrl);
    expect(protectedHeader.kid).toBe(JSON.parse(rotated.stdout).kid);
    expect(payload.exp! - payload.iat!).toBe(120);

    // After a leak: every key goes, and with it every token signed before.
    const revoked = await runCli(['admin', 'keys', 'revoke', ...admin]);
    expect(revoked).toMatchObject({ code: 0, stderr: '' });
    const { kid: newKid, revokedKids } = JSON.parse(revoked.stdout) as {
      kid: string;
      revokedKids: string[];
    };
    expect(revokedKids).toEqual(expect.arrayContaining([kid, protectedHeader.kid]));
    expect(revokedKids).not.toContain(newKid);
    for (const token of [session.access_token, access_token]) {
      await expect(verify(token, authUrl)).rejects.toThrow('no applicable key found');
    }
    const again = await signIn(authUrl);
    expect(decodeProtectedHeader(again.access_token).kid).toBe(newKid);
    expect((await verify(again.access_token, authUrl)).payload.sub).toBe(again.playerId);

    const missing = await runCli(['admin', 'player', 'token', ...admin]);
    expect(missing.code).toBe(2);
    await server.close();
    server = undefined;
  });

  it('starts only the sign-in listener with --services auth', async () => {
    server = await startServer({ ...config, services: ['auth'] });
    expect(Object.keys(server.urls)).toEqual(['auth']);
    expect(server.url).toBe(server.urls['auth']);
    expect(() => server!.api).toThrow('this process does not run the api service');
    const jwks = await fetch(`${server.url}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    await server.close();
    server = undefined;
  });
});
