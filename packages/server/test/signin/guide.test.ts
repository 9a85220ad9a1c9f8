import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testConfig } from '../../src/config.js';
import { systemClock, uuidIds } from '../../src/ids.js';
import { buildAuth } from '../../src/signin/app.js';
import { SigningKeys } from '../../src/credentials/signing-keys.js';
import { testSecretBox } from '@coinop/testkit/secrets';
import { validatePlayerToken } from '../../src/credentials/validate-player-token.js';
import type { Db } from '../../src/store/db.js';
import { openTestDb } from '@coinop/testkit/db';
import { publishedGame } from '@coinop/testkit/arcade';
import { decide, gameSignIn, newWallet, walletSignIn } from '@coinop/testkit/signin';

const GUIDE = new URL('../../../../docs/guides/cli-login.md', import.meta.url);

/** The guide's client, exactly as a reader would copy it. */
async function guideClient(): Promise<string> {
  const text = await readFile(GUIDE, 'utf8');
  const block = /```js\n(\/\/ login\.mjs[\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error('docs/guides/cli-login.md has no login.mjs block');
  return block;
}

/**
 * The guide's jose check (verify.mjs), exactly as a reader would copy it, but for `jose`, which
 * is resolved from this workspace since the temporary directory has no node_modules.
 */
async function guideVerifier(): Promise<string> {
  const text = await readFile(GUIDE, 'utf8');
  const block = /```js\n(\/\/ verify\.mjs[\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error('docs/guides/cli-login.md has no verify.mjs block');
  return block.replace("from 'jose'", `from '${import.meta.resolve('jose')}'`);
}

describe('the CLI login guide’s client, run as written', () => {
  let db: Db;
  let auth: FastifyInstance;
  let url: string;
  let dir: string;
  // Real time: the client really sleeps between polls. A one-second interval keeps it quick.
  const config = testConfig({ cliPollIntervalSeconds: 1 });
  const secrets = testSecretBox();

  beforeAll(async () => {
    db = await openTestDb('pglite');
    auth = await buildAuth(config, { db, clock: systemClock, ids: uuidIds, secrets });
    url = await auth.listen({ host: '127.0.0.1', port: 0 });
    dir = await mkdtemp(join(tmpdir(), 'coinop-guide-'));
  });
  afterAll(async () => {
    await auth?.close();
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the page and code, waits for the approval, and prints the token', async () => {
    const script = join(dir, 'login.mjs');
    await writeFile(script, await guideClient());
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, AUTH_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const lines: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const reader = createInterface({ input: child.stdout });
    const approved = new Promise<void>((resolve, reject) => {
      reader.on('line', (line) => {
        lines.push(line);
        const page = /^Open (\S+)$/.exec(line)?.[1];
        if (!page) return;
        const query = new URL(page).searchParams;
        void (async () => {
          const session = await walletSignIn(auth, newWallet());
          const res = await decide(
            auth,
            'approve',
            query.get('requestorId')!,
            query.get('code')!,
            session.access_token,
          );
          expect(res.statusCode).toBe(200);
        })().then(resolve, reject);
      });
    });
    await approved;
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(lines[0]).toMatch(
      new RegExp(`^Open ${url}/cli/login\\?requestorId=[0-9a-f-]{36}&code=`),
    );
    expect(lines[1]).toMatch(/^and check that it shows the code [A-Z]{4}-[A-Z]{4}$/);
    const token = /^ACCESS_TOKEN=(\S+)$/.exec(lines[2] ?? '')?.[1];
    const keys = new SigningKeys(db, systemClock, secrets, {
      rotationDays: 30,
      tokenTtlSeconds: 86_400,
    });
    const valid = await validatePlayerToken(token, {
      keys: keys.keySource(),
      authIssuer: config.authIssuer,
      claimsNamespace: config.claimsNamespace,
    });
    expect(valid.playerId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('has a jose check that gives a game token’s player id and refuses a web session and another game’s token', async () => {
    const gameId = await publishedGame(db, 'High-Low');
    const otherGameId = await publishedGame(db, 'Reaction');
    const script = join(dir, 'verify.mjs');
    await writeFile(script, await guideVerifier());
    const run = (token: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        // The test's arcade signs as its configured issuer, not the host:port it listens on.
        const env = {
          ...process.env,
          AUTH_URL: url,
          AUTH_ISSUER: config.authIssuer,
          GAME_ID: gameId,
        };
        const child = spawn(process.execPath, [script, token], { env });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const wallet = newWallet();
    const game = await gameSignIn(auth, wallet, gameId);
    const ran = await run(game.access_token);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe(game.playerId);

    // A token the player gave another game is not a token for this one.
    const ofOther = await gameSignIn(auth, wallet, otherGameId);
    const elsewhere = await run(ofOther.access_token);
    expect(elsewhere.code).not.toBe(0);
    expect(elsewhere.stderr).toContain(`the token is for game ${otherGameId}, not ${gameId}`);

    const web = await walletSignIn(auth, wallet);
    const refused = await run(web.access_token);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('unexpected "aud" claim value');
  });
});
