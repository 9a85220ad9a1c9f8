// The chain part of `npm run bench`, on Anvil, against `coinop serve` as shipped (chain mode,
// confirmations 0, polling every 100 ms). BENCH_STORE pglite|postgres.
//
// Deposits credited per second by the chain watcher: BENCH_DEPOSITS (2,000) deposits of 1 HST
// into the vault from 9 wallets to 200 players, made while no watcher runs; then `coinop serve`
// starts and credits the backlog, timed from its API listening until the audit's `vaultHeld`
// reaches the total.
//
// Withdrawals paid per second and per transaction by the withdrawal sender: 10 developers funded
// by deposits, BENCH_WITHDRAWALS (1,000) withdrawals of 1 HST requested over the API while no
// operator key is loaded (so they queue); then `coinop serve` starts with the operator key and
// pays the backlog in withdrawBatch transactions, timed from its API listening until every one is
// posted as paid. Reports the transactions, withdrawals per transaction, gas per withdrawal, and
// `audit --chain` at the end.
//
//   node packages/server/bench/chain-bench.mjs
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sealOperatorKey, startChain } from './chain.mjs';
import { createDatabase, startPostgres } from './postgres.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const cli = join(here, '../dist/cli/main.js');
const deposits = Number(process.env['BENCH_DEPOSITS'] ?? 2000);
const withdrawals = Number(process.env['BENCH_WITHDRAWALS'] ?? 1000);
const WITHDRAWING_DEVELOPERS = 10;
const chainLog = process.env['BENCH_CHAIN_LOG'] === '1';
const HST = 100_000_000n;
const store = process.env['BENCH_STORE'] ?? 'pglite';

const chain = await startChain();
const postgres = store === 'postgres' ? await startPostgres() : null;
if (postgres?.skipped) throw new Error(postgres.skipped);
const database = postgres ? await createDatabase(postgres.adminUrl, 'coinop_chain') : null;
const dataDir = await mkdtemp(join(tmpdir(), 'coinop-chain-bench-'));
const env = { ...process.env };
delete env['DATABASE_URL'];

/** `coinop serve` on the bench's store; resolves once its API listens, with its URL. */
function serve(flags) {
  const child = spawn(
    process.execPath,
    [
      cli,
      'serve',
      '--data-dir',
      dataDir,
      '--api-port',
      '0',
      '--services',
      'api',
      ...(database ? ['--database-url', database.url] : []),
      ...flags,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env },
  );
  const url = new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const { msg, urls } = JSON.parse(line);
      // BENCH_CHAIN_LOG=1: the watcher's and the sender's lines, timed, to see where time goes.
      if (chainLog && /^(chain watcher|withdrawal sender):/.test(msg)) {
        console.error(`${(performance.now() / 1000).toFixed(2)} s ${msg}`);
      }
      const found = msg.startsWith('coinop is ready') ? urls?.api : undefined;
      if (found) resolve(found);
    });
    child.on('exit', (code) => reject(new Error(`coinop serve exited ${code}`)));
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('close', r));
  };
  return { url, stop };
}

const call = async (url, method, path, body, headers) => {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
};
const adminCall = async (url, method, path, body) => {
  const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
  return call(url, method, path, body, { authorization: `Bearer ${token}` });
};
/** Polls `read` every 20 ms until `done` says so; at most ten minutes. */
const until = async (read, done, what) => {
  const started = performance.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (performance.now() - started > 600_000) throw new Error(`${what}: not done in 10 minutes`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

try {
  // The players, made by a coinop without chain mode (the embedded database has one process).
  const setup = serve([]);
  const setupUrl = await setup.url;
  const players = [];
  for (let i = 0; i < 200; i++) {
    const { playerId } = await adminCall(setupUrl, 'POST', '/admin/players', {
      wallet: `0x${randomBytes(20).toString('hex')}`,
    });
    players.push(playerId);
  }
  await setup.stop();

  // The backlog: deposits from 9 wallets at once, each wallet's in nonce order.
  const depositors = await chain.fundDepositors(9, deposits + withdrawals);
  const sendStarted = performance.now();
  let next = 0;
  await Promise.all(
    depositors.map(async (wallet) => {
      for (let n = next++; n < deposits; n = next++) {
        const hash = await chain.deposit(wallet, players[n % players.length], 100_000_000n);
        if (n === deposits - 1) await chain.client.waitForTransactionReceipt({ hash });
      }
    }),
  );
  const sendSeconds = (performance.now() - sendStarted) / 1000;
  const head = await chain.client.getBlockNumber();

  const chainFlags = [
    '--chain-rpc-url',
    chain.rpcUrl,
    '--chain-vault-address',
    chain.deployment.vault,
    '--chain-confirmations',
    '0',
    '--chain-start-block',
    String(chain.deployment.vaultBlockNumber),
    '--chain-poll-ms',
    '100',
  ];
  const watching = serve(chainFlags);
  const url = await watching.url;
  const started = performance.now();
  const audit = await until(
    () => adminCall(url, 'GET', '/admin/hst/audit'),
    // Exact HST text; whole amounts this small read exactly as numbers.
    (a) => Number(a.vaultHeld) >= deposits,
    'the deposit backlog',
  );
  const seconds = (performance.now() - started) / 1000;
  const status = await adminCall(url, 'GET', '/admin/chain');
  console.log(
    JSON.stringify({
      store,
      scenario: 'deposits credited',
      deposits,
      blocks: Number(head - chain.deployment.vaultBlockNumber),
      seconds: Number(seconds.toFixed(2)),
      depositsPerSecond: Math.round(deposits / seconds),
      sentPerSecondOnAnvil: Math.round(deposits / sendSeconds),
      deposited: audit.vaultHeld,
      balanced: audit.balanced,
      held: status.held,
    }),
  );

  // The withdrawal backlog: developers funded on chain, withdrawals queued (no operator key).
  const developers = [];
  for (let i = 0; i < WITHDRAWING_DEVELOPERS; i++) {
    developers.push(
      await adminCall(url, 'POST', '/admin/developers', {
        wallet: `0x${randomBytes(20).toString('hex')}`,
      }),
    );
  }
  const perDeveloper = Math.ceil(withdrawals / WITHDRAWING_DEVELOPERS);
  for (const { developerId } of developers) {
    const hash = await chain.deposit(depositors[0], developerId, BigInt(perDeveloper) * HST);
    await chain.client.waitForTransactionReceipt({ hash });
  }
  const funded = deposits + perDeveloper * WITHDRAWING_DEVELOPERS;
  await until(
    () => adminCall(url, 'GET', '/admin/hst/audit'),
    (a) => Number(a.vaultHeld) >= funded,
    "the developers' deposits",
  );
  let requested = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let n = requested++; n < withdrawals; n = requested++) {
        const { apiKey } = developers[n % WITHDRAWING_DEVELOPERS];
        await call(
          url,
          'POST',
          '/developer/withdrawals',
          { amount: '1', to: `0x${randomBytes(20).toString('hex')}` },
          { 'api-key': apiKey },
        );
      }
    }),
  );
  await watching.stop();

  const keyFile = await sealOperatorKey(cli, dataDir, chain.operatorKey);
  const paying = serve([...chainFlags, '--chain-operator-key-file', keyFile]);
  const payingUrl = await paying.url;
  const payStarted = performance.now();
  await until(
    () => adminCall(payingUrl, 'GET', '/admin/chain'),
    (s) => s.withdrawals.paid.count >= withdrawals,
    'the withdrawal backlog',
  );
  const paySeconds = (performance.now() - payStarted) / 1000;
  const hashes = new Set();
  for (let before = null; ;) {
    const page = await adminCall(
      payingUrl,
      'GET',
      `/admin/chain/withdrawals?status=paid&limit=100${before ? `&before=${before}` : ''}`,
    );
    for (const w of page.withdrawals) hashes.add(w.txHash);
    if (!page.next) break;
    before = page.next;
  }
  let gas = 0n;
  for (const hash of hashes) {
    gas += (await chain.client.getTransactionReceipt({ hash })).gasUsed;
  }
  const reconciled = await adminCall(payingUrl, 'GET', '/admin/hst/audit?chain=true');
  await paying.stop();
  console.log(
    JSON.stringify({
      store,
      scenario: 'withdrawals paid',
      withdrawals,
      transactions: hashes.size,
      withdrawalsPerTransaction: Number((withdrawals / hashes.size).toFixed(1)),
      seconds: Number(paySeconds.toFixed(2)),
      withdrawalsPerSecond: Math.round(withdrawals / paySeconds),
      gasPerWithdrawal: Number(gas / BigInt(withdrawals)),
      balanced: reconciled.balanced,
      reconciled: reconciled.chain.reconciled,
      unexplained: reconciled.chain.unexplained,
    }),
  );
} finally {
  await rm(dataDir, { recursive: true, force: true });
  await database?.drop();
  await postgres?.stop();
  await chain.stop();
}
