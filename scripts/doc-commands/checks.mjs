// The outcomes the docs promise, checked after (or while) their commands run. Each takes a
// command's result `{ output }` and the run's context, and throws CheckFailed when the promise
// does not hold.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, jsonOf } from './context.mjs';

const API = 'http://127.0.0.1:8080';
const TX_HASH = /^0x[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The start-up log's id of a demo player, which the README tells the reader to copy. */
export function demoPlayerId(log, name) {
  const id = new RegExp(`demo: player "${name}" ([0-9a-f-]{36})`).exec(log)?.[1];
  check(id, `the start-up log names no id for "${name}" (the README sends the reader there)`);
  return id;
}

/** What the README's Quick start promises of `npm start`, checked while it runs. */
export async function checkQuickStart(ctx, server) {
  const log = server.output;
  ctx.set('PLAYER_ID', demoPlayerId(log, 'Demo Player One'));
  check(
    /games\s+http:\/\/127\.0\.0\.1:8090\s+\(reaction\)\s+.*http:\/\/127\.0\.0\.1:8091\s+\(high-low\)\s+.*http:\/\/127\.0\.0\.1:8092\s+\(slide\)/s.test(
      log,
    ),
    'the banner does not list the three example games under `games`',
  );
  for (const url of [
    'http://127.0.0.1:8090/',
    'http://127.0.0.1:8091/',
    'http://127.0.0.1:8092/',
  ]) {
    await ctx.waitForStatus(url);
  }
  for (const url of [
    'http://127.0.0.1:8082/',
    'http://127.0.0.1:8082/admin',
    `${API}/docs/`,
    'http://127.0.0.1:8081/docs/',
  ]) {
    const page = await ctx.http(url);
    check(page.status === 200, `${url} answered ${page.status}`);
  }
  const openapi = await ctx.http(`${API}/openapi.json`);
  check(/^3\./.test(openapi.json?.openapi ?? ''), `${API}/openapi.json is not an OpenAPI document`);

  const dataDir = join(ctx.clone, '.coinop');
  const token = ctx.adminToken(dataDir);
  const client = JSON.parse(readFileSync(join(dataDir, 'demo-client.json'), 'utf8'));
  check(client.clientId && client.clientSecret, 'demo-client.json holds no client id and secret');
  check(existsSync(join(dataDir, 'secrets-key')), 'no .coinop/secrets-key');
  check(!log.includes(token), 'the start-up log shows the admin token');
  check(!log.includes(client.clientSecret), "the start-up log shows the demo client's secret");

  const start = log.slice(0, log.indexOf('coinop is ready'));
  const warnings = start.split('\n').filter((line) => /\bWARN\b/.test(line));
  check(
    warnings.length === 1 && /development/.test(warnings[0]),
    `the README promises one warning, that this is a development arcade; the start printed:\n${warnings.join('\n')}`,
  );
  const chainId = await ctx.http('http://127.0.0.1:8545', {
    method: 'POST',
    body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
  });
  check(chainId.json?.result === '0x7a69', 'Anvil on :8545 does not answer chain id 31337');
  // The demo players' HST is backed by the vault: nothing minted in the ledger.
  await checkAudit(ctx, dataDir);
}

/** The ledger balances, nothing minted, and the vault reconciles with the ledger. */
export async function checkAudit(ctx, dataDir) {
  const audit = await ctx.http(`${API}/admin/hst/audit?chain=true`, {
    token: ctx.adminToken(dataDir),
  });
  check(audit.status === 200, `GET /admin/hst/audit answered ${audit.status}: ${audit.body}`);
  const { balanced, minted, chain } = audit.json;
  check(balanced === true && minted === '0', `the audit: balanced ${balanced}, minted ${minted}`);
  check(
    chain?.reconciled === true,
    `the vault does not reconcile: ${JSON.stringify(chain?.findings)}`,
  );
}

/** `npx coinop dev-chain deposit … --account PLAYER_ID --amount 12.5` made the deposit. */
export function depositMade(result, ctx) {
  const deposit = jsonOf(result.output);
  check(
    deposit.amount === '12.5' &&
      deposit.account === ctx.value('PLAYER_ID') &&
      TX_HASH.test(deposit.txHash ?? ''),
    `not the deposit asked for: ${JSON.stringify(deposit)}`,
  );
  ctx.set('lastDeposit', deposit.txHash);
}

/** `npx coinop admin chain deposits` lists the last deposit as credited ("a moment later"). */
export function depositCredited(result, ctx) {
  const { deposits } = jsonOf(result.output);
  const deposit = deposits.find((d) => d.txHash === ctx.value('lastDeposit'));
  check(deposit, `deposit ${ctx.value('lastDeposit')} is not listed yet`);
  check(deposit.status === 'credited', `deposit ${deposit.txHash} is ${deposit.status}`);
  check(deposit.accountId === ctx.value('PLAYER_ID'), `credited to ${deposit.accountId}`);
}

/** A player token (JWT) naming `playerId`, and the game `gameId` when given. */
export function checkPlayerToken(token, playerId, gameId) {
  const parts = token.trim().split('.');
  check(parts.length === 3, `not a JWT: ${token.slice(0, 80)}`);
  const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  for (const id of gameId === undefined ? [playerId] : [playerId, gameId]) {
    check(
      Object.values(claims).includes(id),
      `the token names no ${id}: ${JSON.stringify(claims)}`,
    );
  }
}

export function isAddress(text) {
  return ADDRESS.test(text);
}

export { TX_HASH };
