// What the manifest's steps share while the docs' commands run: the directories, the values a
// reader copies from one command's output into the next, the packed packages, throwaway Postgres
// databases, and small HTTP helpers for the checks.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/** A check that failed: what the doc promised and what happened. */
export class CheckFailed extends Error {
  name = 'CheckFailed';
}

export function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

/** The JSON a command printed (coinop's CLI prints one JSON value), or a failed check. */
export function jsonOf(output) {
  const start = output.search(/[{[]/);
  try {
    return JSON.parse(output.slice(start));
  } catch {
    throw new CheckFailed(`expected JSON, got:\n${output.slice(0, 2_000)}`);
  }
}

export class Context {
  /**
   * `root`: the temporary directory everything happens in; `checkout`: the repository under
   * test; `databaseUrl`: a Postgres server where databases may be created, or undefined.
   */
  constructor({ root, checkout, databaseUrl, log }) {
    this.root = root;
    this.checkout = checkout;
    this.clone = join(root, 'clone');
    this.operator = join(root, 'operator');
    this.tarballDir = join(root, 'tarballs');
    this.databaseUrl = databaseUrl;
    this.log = log;
    this.values = new Map();
    this.servers = new Map();
    this.databases = [];
    this.tarballFiles = new Map();
    this.dirCount = 0;
  }

  /** Remembers a value a later command needs (a reader copies it from the output). */
  set(name, value) {
    this.values.set(name, value);
  }

  value(name) {
    check(
      this.values.has(name),
      `${name} is not known: the step that finds it did not run or failed`,
    );
    return this.values.get(name);
  }

  /** A new empty directory under the run's root. */
  freshDir(name) {
    const dir = join(this.root, `${name}-${++this.dirCount}`);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** A path under the run's root that does not exist yet (a directory a command should make). */
  freshPath(name) {
    return join(this.root, `${name}-${++this.dirCount}`);
  }

  /** Whether Postgres blocks can run: DATABASE_URL names a server where databases may be made. */
  get hasPostgres() {
    return this.databaseUrl !== undefined;
  }

  /** A new empty database on the DATABASE_URL server; its URL. Dropped at the end of the run. */
  async database() {
    check(this.hasPostgres, 'no DATABASE_URL: this step needs a Postgres server');
    const name = `coinop_doc_${process.pid}_${this.databases.length + 1}`;
    await this.adminQuery(`CREATE DATABASE ${name}`);
    this.databases.push(name);
    const url = new URL(this.databaseUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }

  async dropDatabases() {
    for (const name of this.databases.splice(0)) {
      await this.adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  }

  async adminQuery(sql) {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  /** Records the tarballs `npm pack` wrote, by package name. */
  setTarballs(packed) {
    for (const { name, filename } of packed) {
      this.tarballFiles.set(name, join(this.tarballDir, filename));
    }
  }

  /** The tarball paths of `names`, space-separated: what `npm install <name>` installs here. */
  tarballs(...names) {
    return names
      .map((name) => {
        check(this.tarballFiles.has(name), `no tarball of ${name}: the packages were not packed`);
        return this.tarballFiles.get(name);
      })
      .join(' ');
  }

  /** The admin token of the arcade whose data directory is `dataDir`. */
  adminToken(dataDir) {
    const file = join(dataDir, 'admin-token');
    check(existsSync(file), `no admin token at ${file}`);
    return readFileSync(file, 'utf8').trim();
  }

  /** GET (or another method) of a URL; `{ status, headers, body, json }`. Never follows redirects. */
  async http(url, { method = 'GET', token, body, headers = {} } = {}) {
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...headers,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, body: text, json };
  }

  /** Polls `url` until it answers `status` (an example game starting beside the arcade). */
  async waitForStatus(url, status = 200, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer';
    while (Date.now() < deadline) {
      try {
        const res = await this.http(url);
        if (res.status === status) return res;
        last = `${res.status}`;
      } catch (error) {
        last = error.cause?.code ?? error.message;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new CheckFailed(`${url} did not answer ${status} within ${timeoutMs / 1000} s (${last})`);
  }
}
