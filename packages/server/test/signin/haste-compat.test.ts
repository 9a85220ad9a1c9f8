import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeVariants } from '@coinop/testkit/db';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';
import { freePort } from '@coinop/testkit/net';
import { makeCa } from '../fixtures/tls.js';

/** packages/server: where `require('@hastearcade/server')` resolves for the child process. */
const SERVER_DIR = fileURLToPath(new URL('../../', import.meta.url));

// The published game-server SDK, unchanged, in a child process: NODE_EXTRA_CA_CERTS is read only
// when Node starts. It prints the playerId, or the SDK's error message.
const VALIDATE = `
const { Haste } = require('@hastearcade/server');
Haste.validatePlayerAccess(process.argv[1], process.argv[2]).then(
  (playerId) => console.log(JSON.stringify({ playerId })),
  (error) => console.log(JSON.stringify({ error: error.message })),
);`;

function validateInChild(token: string, authHost: string, caPath: string | null) {
  const env = { ...process.env };
  delete env['NODE_EXTRA_CA_CERTS'];
  if (caPath !== null) env['NODE_EXTRA_CA_CERTS'] = caPath;
  return new Promise<{ playerId?: string; error?: string }>((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', VALIDATE, token, authHost],
      { cwd: SERVER_DIR, env, timeout: 20_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}: ${stderr}`));
        else resolve(JSON.parse(stdout) as { playerId?: string; error?: string });
      },
    );
  });
}

describe.each(storeVariants())(
  'unchanged @hastearcade/server@3.0.0 validates coinop player tokens on %s',
  (variant) => {
    let dir: string;
    let s: TestSignin;
    let authHost: string;
    let ca: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'coinop-haste-'));
      const tls = await makeCa(dir);
      ca = tls.ca;
      // The issuer names the port, so it is chosen before the service is built.
      const port = await freePort();
      authHost = `127.0.0.1:${port}`;
      s = await buildTestSignin(
        variant,
        { authIssuer: authHost, claimsNamespace: 'hastearcade.com' },
        { https: { cert: tls.cert, key: tls.key } },
      );
      await s.auth.listen({ host: '127.0.0.1', port });
    });
    afterAll(async () => {
      await s?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('returns the playerId with Haste.validatePlayerAccess(token, authHost) over HTTPS', async () => {
      const session = await walletSignIn(s.auth, newWallet());
      expect(await validateInChild(session.access_token, authHost, ca)).toEqual({
        playerId: session.playerId,
      });
    });

    it('refuses a tampered token, and a server it cannot verify', async () => {
      const session = await walletSignIn(s.auth, newWallet());
      // Without the CA the TLS handshake fails, so the keys cannot be fetched.
      const untrusted = await validateInChild(session.access_token, authHost, null);
      expect(untrusted.playerId).toBeUndefined();
      expect(untrusted.error).toBe(
        'The token does not match the authentication configuration. Validate that you are utilizing the correct auth url for Haste.authenticate()',
      );
      const forged = `${session.access_token.slice(0, -4)}AAAA`;
      expect((await validateInChild(forged, authHost, ca)).playerId).toBeUndefined();
    });
  },
);
