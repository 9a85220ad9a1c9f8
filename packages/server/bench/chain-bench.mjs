// Deposits credited per second by the chain watcher, as shipped: BENCH_DEPOSITS (2,000) deposits
// of 1 HST into the vault on Anvil, from 9 wallets, to 200 players, made while no watcher runs;
// then `coinop serve` starts in chain mode (confirmations 0) and credits the backlog. Timed from
// its API listening until the audit's `vaultHeld` reaches the total. BENCH_STORE pglite|postgres.
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
import { startChain } from './chain.mjs';
import { createDatabase, startPostgres } from './postgres.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const cli = join(here, '../dist/cli/main.js');
const deposits = Number(process.env['BENCH_DEPOSITS'] ?? 2000);
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
      const found = /^coinop api listening on (\S+)$/.exec(JSON.parse(line).msg)?.[1];
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

const adminCall = async (url, method, path, body) => {
  const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
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
  const depositors = await chain.fundDepositors(9, deposits);
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

  const watching = serve([
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
  ]);
  const url = await watching.url;
  const started = performance.now();
  let audit;
  for (;;) {
    audit = await adminCall(url, 'GET', '/admin/hst/audit');
    if (audit.vaultHeld >= deposits) break;
    if (performance.now() - started > 600_000) throw new Error('the backlog was not credited');
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  const status = await adminCall(url, 'GET', '/admin/chain');
  await watching.stop();
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
} finally {
  await rm(dataDir, { recursive: true, force: true });
  await database?.drop();
  await postgres?.stop();
  await chain.stop();
}
