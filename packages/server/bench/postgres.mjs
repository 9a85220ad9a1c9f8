// The durable Postgres the bench measures: the server of DATABASE_URL, or a throwaway cluster
// started here from the machine's Postgres binaries (fsync and synchronous_commit on) and removed
// at the end.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const PG_BIN = '/usr/lib/postgresql/15/bin';
// The first free port from here: another bench (or a developer's cluster) may hold one.
const FIRST_PORT = 55439;

// Durable on purpose (the target is "durable Postgres"); the rest are stock defaults except
// enough connections for the pools and a buffer cache that holds the 1M-row board.
const SETTINGS = {
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  max_connections: '200',
  shared_buffers: '512MB',
  listen_addresses: '127.0.0.1',
};

/**
 * A Postgres server for the bench, or `{ skipped: reason }`. `stop()` removes what was started;
 * `postmasterPid` is set when the server runs on this machine under our control (for CPU
 * accounting).
 */
export async function startPostgres(extraSettings = {}) {
  const fromEnv = process.env['DATABASE_URL'];
  if (fromEnv) {
    return {
      source: 'DATABASE_URL',
      adminUrl: fromEnv,
      postmasterPid: null,
      settings: await serverSettings(fromEnv),
      async stop() {},
    };
  }
  if (!existsSync(join(PG_BIN, 'initdb'))) {
    return { skipped: `no DATABASE_URL and no Postgres binaries at ${PG_BIN}` };
  }

  const dir = await mkdtemp(join(tmpdir(), 'coinop-bench-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    // initdb refuses to run as root: the cluster belongs to the postgres system user.
    const uid = Number(run('id', ['-u', 'postgres']).trim());
    const gid = Number(run('id', ['-g', 'postgres']).trim());
    await chown(dir, uid, gid);
  }
  const asPostgres = (cmd, args) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', cmd, ...args]) : run(cmd, args);

  let port;
  try {
    asPostgres(join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8']);
    port = await freePort(FIRST_PORT);
    const options = Object.entries({ ...SETTINGS, ...extraSettings })
      .map(([k, v]) => `-c ${k}=${v}`)
      .concat([`-p ${port}`, `-k ${dir}`])
      .join(' ');
    asPostgres(join(PG_BIN, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-o',
      options,
      '-w',
      'start',
    ]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const postmasterPid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;

  return {
    source: `throwaway cluster on 127.0.0.1:${port}`,
    adminUrl,
    postmasterPid,
    settings: await serverSettings(adminUrl),
    async stop() {
      try {
        asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A new empty database on the server; returns its URL and a function that drops it. */
export async function createDatabase(adminUrl, prefix) {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

export async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function serverSettings(url) {
  return withClient(url, async (c) => {
    const { rows } = await c.query(
      `SELECT name, setting, unit FROM pg_settings
       WHERE name IN ('server_version', 'fsync', 'synchronous_commit', 'full_page_writes',
                      'wal_sync_method', 'shared_buffers', 'max_connections', 'commit_delay')`,
    );
    return Object.fromEntries(
      rows.map((r) => [r.name, r.unit ? `${r.setting} ${r.unit}` : r.setting]),
    );
  });
}

export async function freePort(from) {
  for (let port = from; port < from + 50; port++) {
    const free = await new Promise((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port from ${from} to ${from + 49} for the throwaway Postgres`);
}

function run(cmd, args) {
  const result = spawnSync(cmd, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
  }
  return result.stdout;
}
