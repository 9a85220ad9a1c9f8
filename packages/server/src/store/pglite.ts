import { PGlite, protocol, types } from '@electric-sql/pglite';
import { DatabaseAvailability } from './availability.js';
import { GENERIC_PLAN_SETTINGS, type Db, type Queryable, type Transaction } from './db.js';
import { DatabaseUnavailable, databaseRefusalFor } from './errors.js';

const parsers = {
  [types.INT8]: (value: string) => BigInt(value),
};

/**
 * The embedded database: Postgres compiled to WebAssembly, file-backed in `dataDir` (or in memory
 * when `dataDir` is undefined, for tests). `loadDataDir` starts it from a dumped data directory.
 * One connection, so transactions run one at a time.
 */
export async function openPglite(
  dataDir: string | undefined,
  options: { loadDataDir?: Blob } = {},
): Promise<Db> {
  return pgliteDb(await startPglite(dataDir, options));
}

/** The PGlite instance `openPglite` serves from, started and ready, with coinop's parsers. */
export async function startPglite(
  dataDir: string | undefined,
  options: { loadDataDir?: Blob } = {},
): Promise<PGlite> {
  const pg = new PGlite({ parsers, ...(dataDir === undefined ? {} : { dataDir }), ...options });
  await pg.waitReady;
  return pg;
}

/**
 * Our Db surface over an open PGlite instance. The embedded database runs in this process, so it
 * is never unreachable the way a server is; it can only stop: closed, or its WebAssembly module
 * aborted. A call that meets it so fails with `DatabaseUnavailable` and tells `Db.availability`.
 */
export function pgliteDb(pg: PGlite): Db {
  const availability = new DatabaseAvailability(() => db.query('SELECT 1'));
  const unavailableOr = (error: unknown): unknown => {
    if (error instanceof DatabaseUnavailable) return error;
    const refusal = databaseRefusalFor(error);
    if (refusal !== null) return refusal;
    const reason = stoppedReason(pg, error);
    if (reason === null) return error;
    const unavailable = new DatabaseUnavailable(reason, error);
    availability.failed(unavailable);
    return unavailable;
  };
  // Calls in progress on the one session: one runs, the rest wait (for `poolStats`).
  let calls = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    calls += 1;
    let result: T;
    try {
      result = await work();
    } catch (error) {
      throw unavailableOr(error);
    } finally {
      calls -= 1;
    }
    availability.succeeded();
    return result;
  };
  const inSession = async <Row>(q: Pick<PGlite, 'query'>, sql: string, params?: unknown[]) =>
    (await q.query<Row>(sql, params)).rows;
  const run = <Row>(q: Pick<PGlite, 'query'>, sql: string, params?: unknown[]) =>
    counted(() => inSession<Row>(q, sql, params));
  const prepared = new PreparedStatements(pg);
  const generic: Queryable = {
    query: (sql, params, name) =>
      name === undefined
        ? run(pg, sql, params)
        : counted(() =>
            pg._runExclusiveTransaction(() =>
              prepared.run(name, sql, params ?? [], false, { generic: true }),
            ),
          ),
  };
  const db: Db = {
    dialect: 'pglite',
    query: (sql, params, name) =>
      name === undefined
        ? run(pg, sql, params)
        : counted(() =>
            pg._runExclusiveTransaction(() => prepared.run(name, sql, params ?? [], false)),
          ),
    transaction: (work) =>
      counted(() =>
        pg.transaction(async (tx) => {
          const wrapped: Transaction = {
            query: (sql, params, name) =>
              name === undefined
                ? inSession(tx, sql, params)
                : prepared.run(name, sql, params ?? [], true),
            exec: async (script) => {
              await tx.exec(script);
            },
          };
          return work(wrapped);
        }),
      ),
    ordered: { ...generic, depth: 1 },
    // One session in this process, never lost: there is no reconnecting to report.
    listen: async (channel, onNotify) => {
      const unsubscribe = await pg.listen(channel, onNotify);
      return () => unsubscribe();
    },
    poolStats: () => ({
      total: 1,
      idle: calls === 0 ? 1 : 0,
      waiting: Math.max(0, calls - 1),
      max: 1,
    }),
    availability,
    close: async () => {
      availability.close();
      // Already closed underneath it (a test's stand-in for a crash): nothing left to close.
      if (!pg.closed) await pg.close();
    },
  };
  return db;
}

/**
 * Why `error` means the embedded database has stopped; null when it is a statement's own
 * outcome. PGlite refuses every call once closed, and a call into a closed or aborted module
 * fails inside it (a TypeError on its released module, or WebAssembly's RuntimeError).
 */
function stoppedReason(pg: PGlite, error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  // WebAssembly.RuntimeError: an abort or a trap inside the module.
  if (error.name === 'RuntimeError') {
    return `the embedded database crashed (${error.message}); restart coinop`;
  }
  if (/^PGlite is clos(ed|ing)$/.test(error.message) || (pg.closed && error instanceof TypeError)) {
    return 'the embedded database is closed; restart coinop';
  }
  return null;
}

/**
 * Named statements, as node-postgres has them: parsed (and planned, once Postgres settles on a
 * generic plan) once, then bound and executed. PGlite's own `query` parses and plans every call
 * again, which costs about as much as running a mid-sized statement.
 */
class PreparedStatements {
  readonly #pg: PGlite;
  /** Each statement prepared on this connection: its parameter types and result columns. */
  readonly #statements = new Map<string, { paramTypes: number[]; fields: ResultField[] }>();

  constructor(pg: PGlite) {
    this.#pg = pg;
  }

  /**
   * Runs `sql` as the prepared statement `name`; the caller holds the transaction lock. With
   * `generic`, outside a transaction, the statement is planned without its values (see
   * `Db.ordered`): the one session's `plan_cache_mode` is set for it and reset after it, in the
   * same call, whether it fails or not.
   */
  run<Row>(
    name: string,
    sql: string,
    params: unknown[],
    inTransaction: boolean,
    { generic = false }: { generic?: boolean } = {},
  ): Promise<Row[]> {
    const pg = this.#pg;
    const exec = (message: Uint8Array) => pg.execProtocolStream(message, { syncToFs: false });
    const { serialize } = protocol;
    return pg._runExclusiveQuery(async () => {
      if (generic && !this.#statements.has(GENERIC_ON[0] ?? '')) {
        await exec(
          concat([
            ...GENERIC_SETTINGS.flatMap(([name, value], i) => [
              serialize.parse({ name: GENERIC_ON[i], text: `SET ${name} = ${value}` }),
              serialize.parse({ name: GENERIC_OFF[i], text: `RESET ${name}` }),
            ]),
            serialize.sync(),
          ]),
        );
        this.#statements.set(GENERIC_ON[0] ?? '', { paramTypes: [], fields: [] });
      }
      let statement = this.#statements.get(name);
      if (statement === undefined) {
        const described = await exec(
          concat([
            serialize.parse({ name, text: sql }),
            serialize.describe({ type: 'S', name }),
            serialize.sync(),
          ]),
        );
        const params = described.find((m) => m.name === 'parameterDescription') as
          { dataTypeIDs: number[] } | undefined;
        const row = described.find((m) => m.name === 'rowDescription') as
          { fields: ResultField[] } | undefined;
        statement = {
          paramTypes: params?.dataTypeIDs ?? [],
          fields: (row?.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        };
        this.#statements.set(name, statement);
      }
      const { paramTypes, fields } = statement;
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = pg.serializers[paramTypes[i] ?? 0];
        return serializer ? serializer(value) : String(value);
      });
      // One call into the WebAssembly backend: bind, execute and sync together, as a client
      // would send them in one packet. The columns are known from when it was prepared.
      const bound = [serialize.bind({ statement: name, values }), serialize.execute({})];
      // An error skips the rest up to the first sync (and rolls the SET back with the
      // statement's own implicit transaction); the RESET after it runs either way.
      const messages = await exec(
        concat(
          generic
            ? [
                ...GENERIC_ON.flatMap((statement) => [
                  serialize.bind({ statement, values: [] }),
                  serialize.execute({}),
                ]),
                ...bound,
                serialize.sync(),
                ...GENERIC_OFF.flatMap((statement) => [
                  serialize.bind({ statement, values: [] }),
                  serialize.execute({}),
                ]),
                serialize.sync(),
              ]
            : [...bound, serialize.sync()],
        ),
      );
      if (!inTransaction) await pg.syncToFs();
      return rowsOf<Row>(fields, messages, pg.parsers);
    });
  }
}

/** The prepared statements that switch the session to generic plans and back, one per setting. */
const GENERIC_SETTINGS = Object.entries(GENERIC_PLAN_SETTINGS);
const GENERIC_ON = GENERIC_SETTINGS.map(([name]) => `coinop_plan_generic_${name}`);
const GENERIC_OFF = GENERIC_SETTINGS.map(([name]) => `coinop_plan_default_${name}`);

interface ResultField {
  readonly name: string;
  readonly dataTypeID: number;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function rowsOf<Row>(
  fields: readonly ResultField[],
  messages: readonly { name: string }[],
  parsers: Record<number | string, (value: string, typeId?: number) => unknown>,
): Row[] {
  const rows: Row[] = [];
  for (const m of messages) {
    if (m.name !== 'dataRow') continue;
    const values = (m as unknown as { fields: (string | null)[] }).fields;
    const row: Record<string, unknown> = {};
    fields.forEach((f, i) => {
      const value = values[i] ?? null;
      row[f.name] = value === null ? null : types.parseType(value, f.dataTypeID, parsers);
    });
    rows.push(row as Row);
  }
  return rows;
}
