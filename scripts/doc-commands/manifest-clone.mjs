// The README's reader, in a fresh clone: the Quick start, then every doc command that runs
// against the arcade `npm start` serves, then the ones that need it stopped.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { check, jsonOf } from './context.mjs';
import {
  checkAudit,
  checkPlayerToken,
  checkQuickStart,
  demoPlayerId,
  depositCredited,
  depositMade,
} from './checks.mjs';
import { readerEnv } from './sessions.mjs';

const exec = promisify(execFile);
const MINUTE = 60_000;
const AUTH = 'http://127.0.0.1:8081';
const DEMO_PLAYER_ONE_WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const playerId = { PLAYER_ID: (ctx) => ctx.value('PLAYER_ID') };

/** Signs a new wallet in on the sign-in service, as the approval page does; its session. */
async function walletSignIn(ctx) {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const challenge = await ctx.http(`${AUTH}/wallet/challenge`, {
    method: 'POST',
    body: { address: wallet.address },
  });
  check(challenge.status === 200, `wallet challenge: ${challenge.status} ${challenge.body}`);
  const { message } = challenge.json;
  const signature = await wallet.signMessage({ message });
  const verify = await ctx.http(`${AUTH}/wallet/verify`, {
    method: 'POST',
    body: { message, signature },
  });
  check(verify.status === 200, `wallet verify: ${verify.status} ${verify.body}`);
  return verify.json;
}

/** The person at the browser: opens the printed address and approves the login. */
async function approveCliLogin(ctx) {
  const { requestorId, code } = ctx.value('cliLogin');
  const session = await walletSignIn(ctx);
  ctx.set('cliLoginPlayer', session.playerId);
  const approved = await ctx.http(`${AUTH}/cli/${requestorId}/approve`, {
    method: 'POST',
    token: session.access_token,
    body: { userCode: code },
  });
  check(approved.status === 200, `approving the login: ${approved.status} ${approved.body}`);
}

/** A published demo game's id, for the guide's `<gameId>`. */
async function demoGameId(ctx) {
  const catalog = await ctx.http('http://127.0.0.1:8080/catalog/games');
  const id = catalog.json?.games?.[0]?.id;
  check(id, `the demo arcade's catalog lists no game: ${catalog.status} ${catalog.body}`);
  ctx.set('guideGameId', id);
  return id;
}

/** The address the guide's `echo "open …"` printed leads to the web app's approval page. */
async function loginPageOpens(result, ctx) {
  const url = /^open (\S+)$/m.exec(result.output)?.[1];
  check(url, `no "open <address>" line in:\n${result.output}`);
  const parsed = new URL(url);
  ctx.set('cliLogin', {
    requestorId: parsed.searchParams.get('requestorId'),
    code: parsed.searchParams.get('code'),
  });
  const redirect = await ctx.http(url);
  const page = redirect.headers.get('location');
  check(redirect.status === 303 && page, `${url} answered ${redirect.status}, not a redirect`);
  const approval = await ctx.http(page);
  check(approval.status === 200, `the approval page ${page} answered ${approval.status}`);
}

/** A deposit no account owns, so that concepts/chain.md has a held deposit to credit. */
async function makeHeldDeposit(ctx) {
  const nobody = randomUUID();
  const { stdout } = await exec(
    'npx',
    [
      'coinop',
      'dev-chain',
      'deposit',
      '--from',
      DEMO_PLAYER_ONE_WALLET,
      '--account',
      nobody,
      '--amount',
      '4',
    ],
    { cwd: ctx.clone, env: readerEnv(join(ctx.clone, 'node_modules/.bin')) },
  );
  ctx.set('heldTx', jsonOf(stdout).txHash);
}

export const CLONE = [
  {
    file: 'README.md',
    block: 'npm install',
    session: 'clone',
    commands: {
      'npm install': {
        timeoutMs: 15 * MINUTE,
        async after(_result, ctx) {
          const { stdout } = await exec('git', ['status', '--porcelain'], { cwd: ctx.clone });
          check(stdout === '', `npm install changed the clone's files:\n${stdout}`);
        },
      },
      'npm start': { server: { name: 'arcade', keep: true, check: checkQuickStart } },
      'npm test': {
        skip:
          "the whole suite (about 25 minutes here): .ci/run's own steps run it on the same " +
          'commit, on Node 20 and on Node 24 with Postgres, before this check',
      },
    },
  },
  {
    file: 'README.md',
    block: 'npx coinop dev-chain deposit',
    session: 'clone',
    needs: ['arcade'],
    fill: playerId,
    commands: {
      'npx coinop dev-chain deposit': { after: depositMade },
      'npx coinop admin chain deposits': { eventually: true, after: depositCredited },
      'npx coinop admin developer create': {
        after(result) {
          const { apiKey } = jsonOf(result.output);
          check(/^ck_/.test(apiKey ?? ''), `no API key in:\n${result.output}`);
          return { API_KEY: apiKey };
        },
      },
      'curl -X POST': {
        after(result, ctx) {
          const withdrawal = jsonOf(result.output);
          check(
            withdrawal.status === 'queued' && withdrawal.amount === '25',
            `the withdrawal was not taken: ${result.output}`,
          );
          ctx.set('withdrawalId', withdrawal.withdrawalId);
        },
      },
      'curl http://127.0.0.1:8080/developer/withdrawals': {
        eventually: true,
        after(result, ctx) {
          const { withdrawals } = jsonOf(result.output);
          const paid = withdrawals.find((w) => w.withdrawalId === ctx.value('withdrawalId'));
          check(paid?.status === 'paid', `the withdrawal is ${paid?.status ?? 'not listed'}`);
          check(
            /^0x[0-9a-f]{64}$/.test(paid.txHash ?? ''),
            `paid without a txHash: ${paid.txHash}`,
          );
        },
      },
    },
    after: (ctx) => checkAudit(ctx, join(ctx.clone, '.coinop')),
  },
  {
    file: 'docs/operating/deploy.md',
    block: 'curl -s http://127.0.0.1:8080/healthz',
    session: 'clone',
    needs: ['arcade'],
    commands: {
      'curl -s http://127.0.0.1:8080/healthz': {
        after: (result) => check(result.output === '{"status":"ok"}', `answered ${result.output}`),
      },
      'curl -s http://127.0.0.1:8080/readyz': {
        after(result) {
          const ready = jsonOf(result.output);
          check(
            ready.status === 'ready' &&
              ready.checks?.database === 'ok' &&
              ready.checks?.migrations === 'current',
            `answered ${result.output}`,
          );
        },
      },
    },
  },
  {
    file: 'docs/operating/dev-chain.md',
    block: 'npx coinop dev-chain deposit',
    session: 'clone',
    needs: ['arcade'],
    fill: playerId,
    commands: {
      'npx coinop dev-chain deposit': { after: depositMade },
      'npx coinop admin chain deposits': { eventually: true, after: depositCredited },
    },
  },
  {
    file: 'docs/operating/cli.md',
    block: 'npx coinop dev-chain deposit',
    session: 'clone',
    needs: ['arcade'],
    fill: playerId,
    commands: { 'npx coinop dev-chain deposit': { after: depositMade } },
  },
  {
    file: 'docs/concepts/chain.md',
    block: 'coinop admin chain deposits --held',
    session: 'clone',
    needs: ['arcade'],
    before: makeHeldDeposit,
    fill: playerId,
    commands: {
      'coinop admin chain deposits --held': {
        eventually: true,
        after(result, ctx) {
          const held = jsonOf(result.output).deposits.find((d) => d.txHash === ctx.value('heldTx'));
          check(
            held?.status === 'held',
            `the deposit to nobody is ${held?.status ?? 'not listed'}`,
          );
          ctx.set('heldDeposit', `${held.txHash}:${held.logIndex}`);
        },
      },
      'coinop admin chain credit-held': {
        fill: { '0x5c…e1:3': (ctx) => ctx.value('heldDeposit') },
        after(result, ctx) {
          const deposit = jsonOf(result.output);
          check(deposit.status === 'credited', `the held deposit is ${deposit.status}`);
          check(
            deposit.creditedAccountId !== null && deposit.txHash === ctx.value('heldTx'),
            `not the held deposit, credited: ${result.output}`,
          );
        },
      },
    },
  },
  {
    file: 'docs/guides/cli-login.md',
    block: 'AUTH_URL=http://127.0.0.1:8081',
    session: 'clone',
    needs: ['arcade'],
    commands: {
      'GAME_ID=': { fill: { '<gameId>': demoGameId } },
      'echo "open': { after: loginPageOpens },
      'until curl': { during: approveCliLogin, timeoutMs: MINUTE },
      'jq -r .access_token token.json': {
        after: (result, ctx) =>
          checkPlayerToken(result.output, ctx.value('cliLoginPlayer'), ctx.value('guideGameId')),
      },
    },
  },
  {
    file: 'docs/guides/cli-login.md',
    block: 'npx coinop admin player create',
    session: 'clone',
    needs: ['arcade'],
    commands: {
      'npx coinop admin player create': {
        after: (result, ctx) => ctx.set('playerId', jsonOf(result.output).playerId),
      },
      'npx coinop admin player token': {
        fill: { '<playerId>': (ctx) => ctx.value('playerId'), '<gameId>': demoGameId },
        after: (result, ctx) =>
          checkPlayerToken(
            jsonOf(result.output).access_token,
            ctx.value('playerId'),
            ctx.value('guideGameId'),
          ),
      },
    },
  },
  {
    file: 'docs/operating/cli.md',
    block: 'npx coinop demo --game-url',
    session: 'clone',
    needs: ['arcade'],
    commands: {
      'npx coinop demo': {
        async after(result, ctx) {
          const url = result.output.trim();
          check(
            url === 'http://127.0.0.1:8082/demo?game=http%3A%2F%2Flocalhost%3A5173%2F',
            `printed ${url}`,
          );
          const page = await ctx.http(url);
          check(page.status === 200, `${url} answered ${page.status}`);
        },
      },
    },
  },
  {
    file: 'README.md',
    block: 'npx coinop --help',
    session: 'clone',
    commands: {
      'npx coinop --help': {
        after: (result) => check(/^Usage: coinop /m.test(result.output), 'no usage printed'),
      },
    },
  },
  { stop: 'arcade' },
  {
    file: 'docs/operating/dev-chain.md',
    block: 'rm -rf .coinop',
    session: 'clone',
    commands: {
      'rm -rf .coinop': {
        after: (_result, ctx) =>
          check(!existsSync(join(ctx.clone, '.coinop')), '.coinop is still there'),
      },
      'npm start': {
        server: {
          name: 'arcade',
          check(_ctx, server) {
            const log = server.output;
            check(/creating the embedded database/.test(log), 'the ledger was not created anew');
            check(/deployed now/.test(log), 'the contracts were not deployed again');
            check(
              /demo: player "Demo Player One" .*1000 HST in the arcade/.test(log),
              'the demo was not funded again',
            );
            demoPlayerId(log, 'Demo Player Two');
          },
        },
      },
    },
  },
  {
    file: 'docs/operating/metrics.md',
    block: 'npx coinop serve --metrics-port 9464',
    session: 'clone',
    commands: {
      'npx coinop serve --metrics-port 9464': { server: { name: 'metrics' } },
      'curl -s http://127.0.0.1:9464/metrics': {
        after: (result) =>
          check(
            /coinop_plays_opened_total/.test(result.output),
            `no such metric:\n${result.output}`,
          ),
      },
    },
  },
  {
    file: 'apps/web/README.md',
    block: 'npm run build',
    session: 'clone',
    commands: {
      'npx vitest run': { timeoutMs: 5 * MINUTE },
      'npm run screenshots': {
        after: (result) =>
          check(
            /^screenshots: \d+ files in docs\/screenshots\//m.test(result.output),
            result.output,
          ),
      },
    },
  },
];
