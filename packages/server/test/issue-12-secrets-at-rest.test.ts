import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  calculateJwkThumbprint,
  createRemoteJWKSet,
  decodeProtectedHeader,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signWriteToken } from '../src/credentials/write-tokens.js';
import { SecretBox } from '../src/credentials/secret-box.js';
import { SecretsKeyError } from '../src/credentials/secrets-key.js';
import { testConfig, type Config } from '../src/config.js';
import { ManualClock } from '../src/ids.js';
import { PGLITE_DIR, startServer, type RunningServer } from '../src/main.js';
import type { Db } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';
import { openPglite } from '../src/store/pglite.js';
import { openPostgres } from '../src/store/postgres.js';
import { insertSigningKey } from '../src/store/signin-keys.js';
import { gameWithTiers } from '@coinop/testkit/arcade';
import { storeVariants, type StoreVariant } from '@coinop/testkit/db';
import { newWallet } from '@coinop/testkit/signin';

// Issue 12, item 8: the player-token signing keys (signing_keys.private_pkcs8) and the HMAC keys
// of write tokens and CLI poll tokens (server_secrets) were stored in plain text, so whoever read
// the database could forge every token. They are now sealed under the operator's secrets key.

/** Where a started coinop keeps its data: a data directory, and a Postgres database or none. */
interface Store {
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  /** The same database, opened directly (as an earlier coinop or an attacker would). */
  open(): Promise<Db>;
  drop(): Promise<void>;
}

async function newStore(variant: StoreVariant): Promise<Store> {
  const dataDir = await mkdtemp(join(tmpdir(), 'coinop-secrets-'));
  if (variant === 'pglite') {
    return {
      dataDir,
      databaseUrl: null,
      open: () => openPglite(join(dataDir, PGLITE_DIR)),
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const url = process.env['DATABASE_URL']!;
  const name = `coinop_test_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: databaseUrl.toString(),
    open: () => openPostgres(databaseUrl.toString(), 2),
    async drop() {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs a new wallet in over HTTP, as the approval page does. */
async function signIn(authUrl: string): Promise<string> {
  const wallet = newWallet();
  const post = async (path: string, body: object) => {
    const res = await fetch(`${authUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, string>;
  };
  const { message } = await post('/wallet/challenge', { address: wallet.address });
  const signature = await wallet.signMessage({ message: message! });
  return (await post('/wallet/verify', { message, signature }))['access_token']!;
}

/** A registered game with client credentials on a running API, and a write token for it. */
async function gameWithWriteToken(server: RunningServer) {
  const game = await gameWithTiers({
    app: server.api,
    db: server.api.arcade.db,
    clock: new ManualClock(new Date()),
    config: server.api.config,
    close: async () => undefined,
  });
  const res = await server.api.inject({
    method: 'POST',
    url: '/oauth/writetoken',
    payload: { client_id: game.clientId, client_secret: game.clientSecret },
  });
  expect(res.statusCode).toBe(200);
  return { game, writeToken: res.json<{ access_token: string }>().access_token };
}

/** The status the API answers a game read with `writeToken`. */
async function readGame(
  server: RunningServer,
  game: { arcadeId: string; gameId: string },
  writeToken: string,
): Promise<number> {
  const res = await server.api.inject({
    url: `/arcades/${game.arcadeId}/developergames/${game.gameId}`,
    headers: { authorization: `Bearer ${writeToken}` },
  });
  return res.statusCode;
}

function verifyPlayerToken(token: string, server: RunningServer, config: Config) {
  return jwtVerify(
    token,
    createRemoteJWKSet(new URL(`${server.urls['auth']}/.well-known/jwks.json`)),
    {
      issuer: `https://${config.authIssuer}/`,
    },
  );
}

/** Every secret-holding value of the database, as bytes. */
async function rawSecrets(db: Db): Promise<Buffer> {
  const rows = [
    ...(await db.query<{ value: Uint8Array }>('SELECT value FROM server_secrets')).map((r) =>
      Buffer.from(r.value),
    ),
    ...(await db.query<{ private_pkcs8: string }>('SELECT private_pkcs8 FROM signing_keys')).map(
      (r) => Buffer.from(r.private_pkcs8, 'utf8'),
    ),
  ];
  return Buffer.concat(rows);
}

describe.each(storeVariants())('secrets at rest across starts of coinop on %s', (variant) => {
  let store: Store;
  let server: RunningServer | undefined;
  let config: Config;

  beforeEach(async () => {
    store = await newStore(variant);
    config = testConfig({
      apiPort: 0,
      dataDir: store.dataDir,
      databaseUrl: store.databaseUrl,
      adminToken: 'secrets-admin',
    });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await store.drop();
  });

  it('keeps tokens issued before a restart valid after it, under a key generated once', async () => {
    server = await startServer(config);
    const keyFile = join(store.dataDir, 'secrets-key');
    const key = await readFile(keyFile, 'utf8');
    expect(key).toMatch(/^[0-9a-f]{64}\n$/);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const playerToken = await signIn(server.urls['auth']!);
    const { game, writeToken } = await gameWithWriteToken(server);
    expect(await readGame(server, game, writeToken)).toBe(200);

    await server.close();
    server = await startServer(config);
    expect(await readFile(keyFile, 'utf8')).toBe(key);
    expect(await readGame(server, game, writeToken)).toBe(200);
    const { payload } = await verifyPlayerToken(playerToken, server, config);
    expect(payload.sub).toEqual(expect.any(String));
    // The restarted process signs with the same stored key, which it could open.
    const again = await signIn(server.urls['auth']!);
    expect(decodeProtectedHeader(again).kid).toBe(decodeProtectedHeader(playerToken).kid);
    // The data directory holds the database and the key; the key's draft is gone.
    expect((await readdir(store.dataDir)).sort()).toEqual(
      variant === 'pglite' ? ['pglite', 'secrets-key'] : ['secrets-key'],
    );
  });

  it('refuses to start under another key or without the key, naming the flag', async () => {
    const hex = randomBytes(32).toString('hex');
    const sealedUnder = new SecretBox(Buffer.from(hex, 'hex')).keyId;
    server = await startServer({ ...config, secretsKey: hex });
    await server.close();
    server = undefined;

    const wrong = randomBytes(32);
    const wrongId = new SecretBox(wrong).keyId;
    const fromEnv = await startServer({ ...config, secretsKey: wrong.toString('base64') }).catch(
      (e: unknown) => e,
    );
    expect(fromEnv).toBeInstanceOf(SecretsKeyError);
    expect((fromEnv as Error).message).toBe(
      `the secrets in the database are sealed under key ${sealedUnder}, not under the key in ` +
        `COINOP_SECRETS_KEY (${wrongId}): give the key they were sealed with in ` +
        '--secrets-key-file (COINOP_SECRETS_KEY_FILE) or COINOP_SECRETS_KEY ' +
        '(see docs/operating/secrets.md)',
    );

    const wrongFile = join(store.dataDir, 'wrong-key');
    await writeFile(wrongFile, `${wrong.toString('hex')}\n`, { mode: 0o600 });
    await expect(startServer({ ...config, secretsKeyFile: wrongFile })).rejects.toThrow(
      `not under the key in ${wrongFile} (${wrongId}) from --secrets-key-file (COINOP_SECRETS_KEY_FILE): ` +
        'give the key they were sealed with',
    );

    // No key given: one is generated into the data directory, and it does not fit either. It
    // sealed nothing, so the refused start removes it again (operator review): left behind, the
    // next start would take it for the operator's key.
    const keyFile = join(store.dataDir, 'secrets-key');
    const missing = await startServer(config).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SecretsKeyError);
    const message = (missing as Error).message;
    expect(message).toMatch(
      new RegExp(
        `^the secrets in the database are sealed under key ${sealedUnder}, not under the key ` +
          'generated just now \\([^)]+\\), as none was given: ',
      ),
    );
    expect(message).toContain(
      `: give the key they were sealed with in --secrets-key-file (COINOP_SECRETS_KEY_FILE) or ` +
        `COINOP_SECRETS_KEY (see docs/operating/secrets.md); the key generated in ${keyFile} ` +
        'is removed again',
    );
    await expect(stat(keyFile)).rejects.toThrow('ENOENT');

    // The right key, as a file this time, opens them: the refusals changed nothing.
    const rightFile = join(store.dataDir, 'right-key');
    await writeFile(rightFile, Buffer.from(hex, 'hex').toString('base64'), { mode: 0o600 });
    server = await startServer({ ...config, secretsKeyFile: rightFile });
    expect(await signIn(server.urls['auth']!)).toEqual(expect.any(String));
  });

  it('seals the plaintext secrets of a database an earlier coinop made, keeping its tokens valid', async () => {
    // What an earlier coinop left: an HMAC key and a signing key, as they are.
    const db = await store.open();
    const writeTokenKey = randomBytes(32);
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(publicKey);
    const publicJwk = { kty: jwk.kty, n: jwk.n, e: jwk.e };
    const kid = await calculateJwkThumbprint(publicJwk);
    const pem = await exportPKCS8(privateKey);
    try {
      await migrate(db);
      await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2)', [
        'write_token_key',
        writeTokenKey,
      ]);
      const now = new Date();
      await insertSigningKey(
        db,
        {
          kid,
          publicJwk: JSON.stringify(publicJwk),
          sealedPrivateKey: pem,
          maxTtlSeconds: 86_400,
          createdAt: now,
        },
        now,
      );
    } finally {
      await db.close();
    }
    const oldPlayerToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(`https://${config.authIssuer}/`)
      .setSubject('a player of the earlier coinop')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);

    server = await startServer(config);
    const raw = await rawSecrets(server.api.arcade.db);
    expect(raw.includes(writeTokenKey)).toBe(false);
    expect(raw.includes('PRIVATE KEY')).toBe(false);
    const sealed = await server.api.arcade.db.query<{ private_pkcs8: string }>(
      'SELECT private_pkcs8 FROM signing_keys WHERE kid = $1',
      [kid],
    );
    expect(sealed[0]?.private_pkcs8).toMatch(/^sealed\.v1\./);

    // A write token the earlier coinop signed is still good, and so is its player token.
    const { game } = await gameWithWriteToken(server);
    const oldWriteToken = await signWriteToken(
      {
        clientId: game.clientId,
        developerId: game.developerId,
        gameId: game.gameId,
        arcadeId: game.arcadeId,
      },
      writeTokenKey,
      new Date(),
      600,
    );
    expect(await readGame(server, game, oldWriteToken)).toBe(200);
    expect((await verifyPlayerToken(oldPlayerToken, server, config)).payload.sub).toBe(
      'a player of the earlier coinop',
    );
    expect(decodeProtectedHeader(await signIn(server.urls['auth']!)).kid).toBe(kid);
  });
});
