// What a score batch's parameters cost each side (issue 32, round 4): one statement carrying a
// 2-score write's shape (50 arrays, 600 values) sent three in flight, as the ordered connection
// sends batches, by node-postgres as text arrays (as the store does), by node-postgres as one JSON
// text (`json_to_recordset`), and by the `postgres` driver if it is installed
// (`npm i --no-save postgres` first). Reports the client's CPU, the Postgres backend's CPU (from
// /proc, so run it as the cluster's owner or root) and the wall time, per statement.
//   DATABASE_URL=postgres://coinop@127.0.0.1:55432/coinop_prof node packages/server/bench/batch-params.mjs
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL to a Postgres database');
const statements = Number(process.env.BENCH_STATEMENTS ?? 4000);
const depth = 3;

const kinds = [
  ...Array(25).fill('uuid'),
  ...Array(8).fill('bigint'),
  ...Array(6).fill('timestamptz'),
  ...Array(4).fill('float8'),
  ...Array(4).fill('text'),
  ...Array(3).fill('boolean'),
];
const rowsPerArray = 12;
const at = new Date().toISOString();
const value = (kind, i) =>
  ({
    uuid: () => randomUUID(),
    bigint: () => String(1_000_000 + i * 7919),
    timestamptz: () => at,
    float8: () => 12_345.5 + i,
    text: () => `key-${i}-abcdefgh`,
    boolean: () => i % 2 === 0,
  })[kind]();
const arrays = kinds.map((kind) => Array.from({ length: rowsPerArray }, (_, i) => value(kind, i)));
const arraysSql = `SELECT ${kinds.map((kind, i) => `cardinality($${i + 1}::${kind}[])`).join(' + ')} AS n`;
const rows = Array.from({ length: rowsPerArray }, (_, i) =>
  Object.fromEntries(kinds.map((_, j) => [`c${j}`, arrays[j][i]])),
);
const jsonSql = `SELECT count(*)::int * ${kinds.length} AS n FROM json_to_recordset($1::json)
  AS d(${kinds.map((kind, j) => `c${j} ${kind}`).join(', ')})`;

/** CPU ticks (1/100 s) the process `pid` has used. */
function ticks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function measure(label, execute, backendPid) {
  for (let i = 0; i < 300; i++) await execute();
  const cpu = process.cpuUsage();
  const backend = ticks(backendPid);
  const start = performance.now();
  const inFlight = [];
  for (let i = 0; i < statements; i++) {
    inFlight.push(execute());
    if (inFlight.length >= depth) await inFlight.shift();
  }
  await Promise.all(inFlight);
  const used = process.cpuUsage(cpu);
  const per = (x) => (x / statements).toFixed(1).padStart(6);
  console.log(
    `${label.padEnd(26)} client ${per(used.user + used.system)} µs   backend ${per((ticks(backendPid) - backend) * 10_000)} µs   wall ${per((performance.now() - start) * 1000)} µs`,
  );
}

const client = new pg.Client({ connectionString: url, pipeline: true });
await client.connect();
const pgPid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
const variants = [
  [
    'node-postgres, text arrays',
    () => client.query({ name: 'arrays', text: arraysSql, values: arrays, rowMode: 'array' }),
    pgPid,
  ],
  [
    'node-postgres, one JSON',
    () =>
      client.query({
        name: 'json',
        text: jsonSql,
        values: [JSON.stringify(rows)],
        rowMode: 'array',
      }),
    pgPid,
  ],
];

const postgresJs = await import('postgres').then(
  (m) => m.default,
  () => null,
);
const sql = postgresJs?.(url, { max: 1, prepare: true });
if (sql) {
  // The driver types a JS array by its first element; booleans as text let Postgres cast them.
  const values = arrays.map((array) => array.map((v) => (typeof v === 'boolean' ? String(v) : v)));
  const pid = (await sql`SELECT pg_backend_pid() AS pid`)[0].pid;
  variants.push([
    'postgres (porsager), arrays',
    () => sql.unsafe(arraysSql, values, { prepare: true }),
    pid,
  ]);
} else {
  console.log('(the postgres driver is not installed: npm i --no-save postgres to compare it)');
}

for (const [label, execute] of variants) {
  const n = await execute();
  const got = Number(n.rows?.[0]?.[0] ?? n[0]?.n);
  if (got !== kinds.length * rowsPerArray) throw new Error(`${label}: read ${got} values`);
}
for (let round = 0; round < 3; round++) {
  for (const [label, execute, pid] of variants) await measure(label, execute, pid);
}
await client.end();
await sql?.end();
