// Diagnosis for issue 31's transfer list (GET /admin/ledger/transfers): which indexes its
// queries need, and what each costs the writes every play and score make. On a fresh, migrated
// database it seeds `plays` plays' worth of transfers (5 a play: the lock, its post, and payouts
// to a leader, the developer and the arcade: 200,000 by default), then for each set of indexes
// prints EXPLAIN ANALYZE of the list's real statements (the compiled store's), and times inserting
// play-shaped batches of 5 transfers, one transaction each.
//   node packages/server/bench/explain-ledger-transfers.mjs [pglite | postgres://…] [plays]
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { performance } from 'node:perf_hooks';
import { openPglite } from '../dist/store/pglite.js';
import { openPostgres } from '../dist/store/postgres.js';
import { migrate } from '../dist/store/migrate.js';
import { listTransfers } from '../dist/store/ledger-transfers.js';

const [target = 'pglite', playsArg = '40000'] = process.argv.slice(2);
const plays = Number(playsArg);
// On Postgres, a database of its own beside the given one's, dropped at the end.
const scratch = target === 'pglite' ? null : new URL(target);
if (scratch) scratch.pathname = '/coinop_ledger_explain';
async function admin(sql) {
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  await client.query(sql);
  await client.end();
}
if (scratch) {
  await admin('DROP DATABASE IF EXISTS coinop_ledger_explain WITH (FORCE)');
  await admin('CREATE DATABASE coinop_ledger_explain');
}
const db = scratch ? await openPostgres(scratch.toString(), 1) : await openPglite(undefined);
await migrate(db);
// Measured from the schema before 034, whose indexes are among the sets tried below.
await db.query('DROP INDEX IF EXISTS transfers_by_time');
await db.query('DROP INDEX IF EXISTS transfers_by_debit_account');

const PLAYERS = 2000;
const log = (...a) => console.log(...a);
log(`# ${target === 'pglite' ? 'PGlite' : 'Postgres'}: ${plays} plays, ${plays * 5} transfers`);

await db.query(`
  INSERT INTO accounts (id, kind, created_at)
  SELECT md5('player' || n)::uuid, 'player', now() FROM generate_series(1, ${PLAYERS}) n
  UNION ALL SELECT md5('developer')::uuid, 'developer', now()
  UNION ALL SELECT md5('arcade')::uuid, 'arcade', now()
  UNION ALL SELECT md5('mint')::uuid, 'mint', now()
  UNION ALL SELECT md5('play' || n)::uuid, 'escrow', now() FROM generate_series(1, ${plays}) n`);
// Each play 10 ms after the last; the lock's post and the payouts at the score, 5 ms later.
await db.query(`
  INSERT INTO transfers (id, kind, debit_account_id, credit_account_id, amount, pending_id,
                         reason, play_id, created_at)
  SELECT x.* FROM generate_series(1, ${plays}) n, LATERAL (VALUES
    (md5('lock' || n)::uuid, 'pending', md5('player' || (n % ${PLAYERS}))::uuid,
     md5('play' || n)::uuid, 1000000000::bigint, NULL::uuid, 'play_lock', md5('play' || n)::uuid,
     timestamptz '2026-01-01' + n * interval '10 ms'),
    (gen_random_uuid(), 'post_pending', md5('player' || (n % ${PLAYERS}))::uuid,
     md5('play' || n)::uuid, 1000000000, md5('lock' || n)::uuid, 'play_settle',
     md5('play' || n)::uuid, timestamptz '2026-01-01' + n * interval '10 ms' + interval '5 ms'),
    (gen_random_uuid(), 'posted', md5('play' || n)::uuid,
     md5('player' || ((n * 7) % ${PLAYERS}))::uuid, 800000000, NULL, 'payout_leader',
     md5('play' || n)::uuid, timestamptz '2026-01-01' + n * interval '10 ms' + interval '5 ms'),
    (gen_random_uuid(), 'posted', md5('play' || n)::uuid, md5('developer')::uuid, 150000000,
     NULL, 'payout_developer', md5('play' || n)::uuid,
     timestamptz '2026-01-01' + n * interval '10 ms' + interval '5 ms'),
    (gen_random_uuid(), 'posted', md5('play' || n)::uuid, md5('arcade')::uuid, 50000000, NULL,
     'payout_arcade', md5('play' || n)::uuid,
     timestamptz '2026-01-01' + n * interval '10 ms' + interval '5 ms')
  ) x`);
await db.query('ANALYZE transfers');
await db.query('ANALYZE accounts');

const player = (n) => db.query(`SELECT md5('player' || $1::text)::uuid::text AS id`, [n]);
const [{ id: somePlayer }] = await player(17);
const [{ id: developer }] = await db.query(`SELECT md5('developer')::uuid::text AS id`);
const middle = { atMicros: 1767225600000000n + BigInt(plays) * 5000n, id: randomUUID() };

const none = { accountId: null, kind: null, reason: null, fromMicros: null, toMicros: null };
const QUERIES = [
  ['first page, no filter', none, null],
  ['a page from the middle, no filter', none, middle],
  ["a player's account (either side)", { ...none, accountId: somePlayer }, null],
  ["the developer's account (either side)", { ...none, accountId: developer }, null],
  ['reason=play_lock (a fifth of the rows)', { ...none, reason: 'play_lock' }, null],
];

/** Runs the store's statement for a filter under EXPLAIN ANALYZE, printing the plan. */
async function explain(name, filter, after) {
  const explaining = {
    async query(sql, params) {
      const rows = await db.query(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, params);
      log(`\n### ${name}\n\n\`\`\`\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n\`\`\``);
      return [];
    },
  };
  await listTransfers(explaining, filter, after, 50);
}

/**
 * Milliseconds and WAL bytes per play-shaped batch of 5 inserts, one transaction each. The WAL a
 * write makes (heap and every index entry) does not depend on what else the machine is doing.
 */
async function writeCost(batches) {
  const lsn = async () => (await db.query('SELECT pg_current_wal_lsn()::text AS l'))[0].l;
  const walFrom = await lsn();
  const start = performance.now();
  for (let b = 0; b < batches; b += 1) {
    await db.transaction(async (tx) => {
      const n = plays + 1 + Math.floor(Math.random() * 1e9);
      const at = new Date();
      const lock = randomUUID();
      const escrow = randomUUID();
      await tx.query(`INSERT INTO accounts (id, kind, created_at) VALUES ($1, 'escrow', $2)`, [
        escrow,
        at,
      ]);
      await tx.query(
        `INSERT INTO transfers (id, kind, debit_account_id, credit_account_id, amount, pending_id,
                                reason, play_id, created_at)
         VALUES ($1, 'pending', md5('player' || $3::text)::uuid, $2, 10, NULL, 'play_lock', $2, $4),
                ($5, 'post_pending', md5('player' || $3::text)::uuid, $2, 10, $1, 'play_settle', $2, $4),
                ($6, 'posted', $2, md5('player' || ($3::bigint % 2000)::text)::uuid, 8, NULL, 'payout_leader', $2, $4),
                ($7, 'posted', $2, md5('developer')::uuid, 1, NULL, 'payout_developer', $2, $4),
                ($8, 'posted', $2, md5('arcade')::uuid, 1, NULL, 'payout_arcade', $2, $4)`,
        [lock, escrow, n % PLAYERS, at, randomUUID(), randomUUID(), randomUUID(), randomUUID()],
      );
    });
  }
  const ms = (performance.now() - start) / batches;
  const [{ bytes }] = await db.query('SELECT pg_wal_lsn_diff($1, $2)::text AS bytes', [
    await lsn(),
    walFrom,
  ]);
  return { ms, walBytes: Number(bytes) / batches };
}

const INDEX_SETS = [
  ['today (no new index)', []],
  ['(created_at, id)', ['CREATE INDEX x_time ON transfers (created_at, id)']],
  [
    '(created_at, id) + debit (debit_account_id, created_at, id)',
    [
      'CREATE INDEX x_time ON transfers (created_at, id)',
      'CREATE INDEX x_debit ON transfers (debit_account_id, created_at, id)',
    ],
  ],
  [
    'BRIN (created_at) + debit',
    [
      'CREATE INDEX x_time ON transfers USING brin (created_at)',
      'CREATE INDEX x_debit ON transfers (debit_account_id, created_at, id)',
    ],
  ],
];

const costs = new Map();
for (const round of [1, 2]) {
  for (const [name, statements] of INDEX_SETS) {
    for (const s of statements) await db.query(s);
    await db.query('ANALYZE transfers');
    if (round === 1) {
      log(`\n## Indexes: ${name}`);
      for (const [q, filter, after] of QUERIES) await explain(q, filter, after);
    }
    await writeCost(200); // warm-up
    const ms = await writeCost(2000);
    costs.set(name, [...(costs.get(name) ?? []), ms]);
    await db.query('DROP INDEX IF EXISTS x_time');
    await db.query('DROP INDEX IF EXISTS x_debit');
  }
}
log('\n## Writing a play-shaped batch (5 transfers, one transaction), per batch, 2 rounds\n');
log('| indexes | ms, round 1 | ms, round 2 | WAL bytes, round 1 | WAL bytes, round 2 |');
log('| --- | --- | --- | --- | --- |');
for (const [name, [a, b]] of costs) {
  const ms = (c) => c.ms.toFixed(3);
  const wal = (c) => Math.round(c.walBytes);
  log(`| ${name} | ${ms(a)} | ${ms(b)} | ${wal(a)} | ${wal(b)} |`);
}
await db.close();
if (scratch) await admin('DROP DATABASE coinop_ledger_explain WITH (FORCE)');
