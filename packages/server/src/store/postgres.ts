import pg from 'pg';
import { DatabaseAvailability } from './availability.js';
import { GENERIC_PLAN_SETTINGS, type Db, type Transaction } from './db.js';
import { DatabaseUnavailable, databaseRefusalFor } from './errors.js';
import { FirstUseGate } from './first-use-gate.js';
import { PgErrorCodes, pgErrorCode, unreachableReason } from './postgres-errors.js';

const INT8_OID = 20;

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => BigInt(value);
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
};

/** How many times a transaction that lost a deadlock or serialization race is run again. */
const TRANSACTION_ATTEMPTS = 5;

/**
 * How long opening a connection may take by default. A Postgres on the network accepts in
 * milliseconds; without a limit a host that drops packets would hold every request for the
 * system's two minutes of TCP retries.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/**
 * A real Postgres through a node-postgres pool. A call that finds the server unreachable (see
 * `unreachableReason`) fails with `DatabaseUnavailable` and tells `Db.availability`.
 */
export async function openPostgres(
  url: string,
  poolSize: number,
  { connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS }: { readonly connectTimeoutMs?: number } = {},
): Promise<Db> {
  // The limit is the connection's own, not the pool's: pg-pool would apply it to a query waiting
  // for a free connection too, and under load such a wait is a busy database, not a lost one.
  const Client = class extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
    }
  };
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: typeParsers, Client });
  const genericOptions = Object.entries(GENERIC_PLAN_SETTINGS)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  // node-postgres lets the URL's own `options` (an operator's statement_timeout, say) replace an
  // `options` given beside it: the ordered connection takes both from its config instead.
  const fromUrl = splitOptions(url);
  const ordered = new PipelinedConnection(
    fromUrl.url,
    fromUrl.options === null ? genericOptions : `${fromUrl.options} ${genericOptions}`,
    connectTimeoutMs,
  );
  // An idle client whose connection dies (a restart, a terminated backend) is dropped by the
  // pool; without a listener its error would crash the process.
  pool.on('error', () => undefined);
  // Fail at start, with the server's own message, rather than on the first request.
  const client = await pool.connect();
  client.release();

  const availability = new DatabaseAvailability(() => run(pool, 'SELECT 1', [], undefined));
  const secrets = urlSecrets(url);
  /** The error a failed call throws: DatabaseUnavailable when the server cannot be reached. */
  const unavailableOr = (error: unknown): unknown => {
    if (error instanceof DatabaseUnavailable) return error;
    const refusal = databaseRefusalFor(error, (reason) => withoutSecrets(reason, secrets));
    if (refusal !== null) return refusal;
    const reason = unreachableReason(error);
    if (reason === null) return error;
    const unavailable = new DatabaseUnavailable(withoutSecrets(reason, secrets), error);
    availability.failed(unavailable);
    return unavailable;
  };
  const run = async <Row>(
    q: pg.Pool | pg.ClientBase,
    sql: string,
    params: unknown[] | undefined,
    name: string | undefined,
  ): Promise<Row[]> => {
    const config: pg.QueryConfig = { text: sql, values: params ?? [] };
    if (name !== undefined) config.name = name;
    let result: pg.QueryResult;
    try {
      result = await q.query(config);
    } catch (error) {
      throw unavailableOr(error);
    }
    availability.succeeded();
    return result.rows as Row[];
  };

  return {
    dialect: 'postgres',
    query: (sql, params, name) => run(pool, sql, params, name),
    ordered: {
      depth: PIPELINE_DEPTH,
      query: (sql, params, name) =>
        ordered.send(name, (client) => run(client, sql, params, name), unavailableOr),
    },
    transaction: (work) => inTransaction(pool, { run, unavailableOr }, work),
    listen: (channel, onNotify, options) =>
      listen(url, connectTimeoutMs, channel, onNotify, options),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: poolSize,
    }),
    availability,
    close: async () => {
      availability.close();
      await Promise.all([pool.end(), ordered.end()]);
    },
  };
}

/** How a pool's calls run a statement and tell a lost server from a failed statement. */
interface PoolCalls {
  run<Row>(
    q: pg.Pool | pg.ClientBase,
    sql: string,
    params: unknown[] | undefined,
    name: string | undefined,
  ): Promise<Row[]>;
  /** The error a failed call throws: DatabaseUnavailable when the server cannot be reached. */
  unavailableOr(error: unknown): unknown;
}

/**
 * `Db.transaction` on a pool: `work` on a connection of its own between BEGIN and COMMIT, run
 * again from the start after a deadlock or a serialization failure (up to `TRANSACTION_ATTEMPTS`).
 */
async function inTransaction<T>(
  pool: pg.Pool,
  calls: PoolCalls,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let conn: pg.PoolClient;
    try {
      conn = await pool.connect();
    } catch (error) {
      throw calls.unavailableOr(error);
    }
    // A connection lost mid-transaction is closed, not handed to the next caller. Lost
    // between two statements (the server shutting down), the client reports it as an event:
    // pg-pool listens only to idle clients, and an event no one hears would end the process.
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost ??= error;
    };
    conn.on('error', onLost);
    try {
      await calls.run(conn, 'BEGIN', [], undefined);
      const tx: Transaction = {
        query: (sql, params, name) => calls.run(conn, sql, params, name),
        // No values: node-postgres sends it by the simple protocol, which takes many statements.
        exec: async (script) => {
          try {
            await conn.query(script);
          } catch (error) {
            throw calls.unavailableOr(error);
          }
        },
      };
      const result = await work(tx);
      // Lost here, the commit's outcome is unknown: the caller answers 503, and a retry
      // with the same idempotency key finds what committed.
      await calls.run(conn, 'COMMIT', [], undefined);
      return result;
    } catch (error) {
      if (error instanceof DatabaseUnavailable) lost = error;
      await conn.query('ROLLBACK').catch(() => undefined);
      const code = pgErrorCode(error);
      const retryable =
        code === PgErrorCodes.deadlockDetected || code === PgErrorCodes.serializationFailure;
      if (!retryable || attempt >= TRANSACTION_ATTEMPTS) throw error;
    } finally {
      conn.off('error', onLost);
      conn.release(lost);
    }
  }
}

/**
 * The URL without its `options` parameter, and that parameter (null when it has none); a URL
 * that does not parse is left as it is.
 */
function splitOptions(url: string): { url: string; options: string | null } {
  try {
    const parsed = new URL(url);
    const options = parsed.searchParams.get('options');
    if (options === null) return { url, options };
    parsed.searchParams.delete('options');
    return { url: parsed.toString(), options };
  } catch {
    return { url, options: null };
  }
}

/** The URL's password, decoded and as written, so no reason logged can carry it. */
function urlSecrets(url: string): string[] {
  try {
    const { password } = new URL(url);
    return password === '' ? [] : [password, decodeURIComponent(password)];
  } catch {
    return [];
  }
}

function withoutSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.replaceAll(secret, '…'), text);
}

/** Batches worth having in flight on the pipelined connection (`Db.ordered`). */
const PIPELINE_DEPTH = 3;

/**
 * One connection in pipeline mode (`Db.ordered`), opened when first used and again after it is
 * lost. Statements given while it connects wait for it in the order given.
 */
class PipelinedConnection {
  readonly #url: string;
  readonly #options: string;
  readonly #connectTimeoutMs: number;
  #client: Promise<pg.Client> | null = null;
  #connected: pg.Client | null = null;
  /** Each connection's own: a new connection has made no statement yet. */
  readonly #gates = new WeakMap<pg.Client, FirstUseGate>();
  #ended = false;

  constructor(url: string, options: string, connectTimeoutMs: number) {
    this.#url = url;
    this.#options = options;
    this.#connectTimeoutMs = connectTimeoutMs;
  }

  /**
   * Sends a statement on the connection: at once when connected (behind a first use: see
   * `FirstUseGate`), else once connected, so statements go out in the order they were given. A
   * connection that cannot be made fails it with `failed(error)`.
   */
  send<T>(
    name: string | undefined,
    statement: (client: pg.Client) => Promise<T>,
    failed: (error: unknown) => unknown,
  ): Promise<T> {
    const connected = this.#connected;
    if (connected !== null) return this.#gateOf(connected).send(name, () => statement(connected));
    return this.client().then(
      (client) => this.#gateOf(client).send(name, () => statement(client)),
      (error: unknown) => Promise.reject(failed(error)),
    );
  }

  #gateOf(client: pg.Client): FirstUseGate {
    let gate = this.#gates.get(client);
    if (gate === undefined) {
      gate = new FirstUseGate();
      this.#gates.set(client, gate);
    }
    return gate;
  }

  client(): Promise<pg.Client> {
    if (this.#ended) {
      return Promise.reject(new DatabaseUnavailable('the database is closed', undefined));
    }
    if (this.#client === null) {
      const connecting: Promise<pg.Client> = this.#connect(() => {
        if (this.#client !== connecting) return;
        this.#client = null;
        this.#connected = null;
      });
      this.#client = connecting;
      connecting.then(
        (client) => {
          if (this.#client === connecting) this.#connected = client;
        },
        () => undefined,
      );
    }
    return this.#client;
  }

  async #connect(forget: () => void): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.#url,
      types: typeParsers,
      options: this.#options,
      pipeline: true,
      connectionTimeoutMillis: this.#connectTimeoutMs,
    } as pg.ClientConfig);
    client.on('error', forget);
    client.on('end', forget);
    try {
      await client.connect();
    } catch (error) {
      forget();
      throw error;
    }
    return client;
  }

  async end(): Promise<void> {
    this.#ended = true;
    this.#connected = null;
    const client = await this.#client?.catch(() => null);
    await client?.end().catch(() => undefined);
  }
}

/** The first wait before listening again on a lost connection; it doubles after each failure. */
const LISTEN_RETRY_FIRST_MS = 250;
const LISTEN_RETRY_MAX_MS = 30_000;

/**
 * A connection of its own that LISTENs on `channel` (a pooled one would be handed to others),
 * connecting again whenever it is lost, with a growing wait while that fails, until the returned
 * function stops it. `onReconnect` is called once it listens again: notices sent meanwhile are
 * lost.
 */
async function listen(
  url: string,
  connectTimeoutMs: number,
  channel: string,
  onNotify: (payload: string) => void,
  { onReconnect }: { readonly onReconnect?: () => void } = {},
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let waitMs = LISTEN_RETRY_FIRST_MS;
  const again = () => {
    if (stopped) return;
    retry = setTimeout(
      () =>
        void connect().then(
          () => {
            waitMs = LISTEN_RETRY_FIRST_MS;
            if (!stopped) onReconnect?.();
          },
          () => {
            waitMs = Math.min(waitMs * 2, LISTEN_RETRY_MAX_MS);
            again();
          },
        ),
      waitMs,
    );
    retry.unref();
  };
  const connect = async () => {
    // TCP keep-alive: a connection cut without a goodbye is noticed and replaced.
    const next = new pg.Client({
      connectionString: url,
      keepAlive: true,
      connectionTimeoutMillis: connectTimeoutMs,
    });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    next.on('error', () => undefined);
    next.on('end', () => {
      if (client !== next) return;
      client = null;
      again();
    });
    try {
      await next.connect();
      // A channel name is an identifier: quoted, so any name is taken literally.
      await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
