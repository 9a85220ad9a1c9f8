// The operator, with coinop installed from its packages outside the repository: the install,
// `coinop serve` on the embedded database and on Postgres, migrations, `db copy`, the secrets
// key, and chain mode's deployment (on an Anvil standing in for the real network).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { check, jsonOf } from './context.mjs';
import { isAddress } from './checks.mjs';
import { BackgroundCommand } from './processes.mjs';

const API = 'http://127.0.0.1:8080';
const RPC = 'http://127.0.0.1:8545';
const arcadeDir = (ctx) => join(ctx.operator, 'arcade');

/** `npm install <name>` of a package that is not published from here: its packed tarballs. */
const installs = {
  'npm install coinop': (ctx) =>
    `npm install ${ctx.tarballs('coinop', '@coinop/protocol', '@coinop/core', '@coinop/contracts')}`,
  'npm install @coinop/server-sdk': (ctx) =>
    `npm install ${ctx.tarballs('@coinop/server-sdk', '@coinop/protocol')}`,
  'npm install @coinop/game-sdk': (ctx) =>
    `npm install ${ctx.tarballs('@coinop/game-sdk', '@coinop/protocol')}`,
  'npm install @coinop/protocol': (ctx) => `npm install ${ctx.tarballs('@coinop/protocol')}`,
};
/** The fills of `installs` for the commands a block has (a fill no command uses fails the run). */
const install = (...commands) => Object.fromEntries(commands.map((c) => [c, installs[c]]));

/** The docs' example database URLs, each a new database on the DATABASE_URL server. */
const database = (url) => ({ [url]: (ctx) => ctx.database() });

/** `/readyz` of the API says ready. */
async function apiReady(ctx) {
  const ready = await ctx.http(`${API}/readyz`);
  check(ready.status === 200 && ready.json?.status === 'ready', `/readyz: ${ready.body}`);
}

/** A served arcade whose data directory is `dir` holds the demo and balances. */
async function demoArcadeServed(ctx, dir) {
  await apiReady(ctx);
  const token = ctx.adminToken(join(dir, '.coinop'));
  const players = await ctx.http(`${API}/admin/players?search=Demo`, { token });
  const names = (players.json?.players ?? []).map((p) => p.name).sort();
  check(
    names.includes('Demo Player One') && names.includes('Demo Player Two'),
    `the demo players are not there: ${players.body}`,
  );
  const audit = await ctx.http(`${API}/admin/hst/audit`, { token });
  check(audit.json?.balanced === true, `the audit: ${audit.body}`);
}

/** Anvil, standing in for the real network of docs/operating/chain.md, on the README's :8545. */
async function startChain(ctx) {
  const { anvilBinary } = await import(join(ctx.clone, 'packages/server/dist/dev-chain/anvil.js'));
  const anvil = new BackgroundCommand(`${anvilBinary()} --host 127.0.0.1 --port 8545`, {
    cwd: ctx.root,
    env: process.env,
  });
  ctx.servers.set('anvil', anvil);
  await anvil.waitFor(/Listening on 127\.0\.0\.1:8545/, 30_000);
  const deployer = generatePrivateKey();
  const funded = await ctx.http(RPC, {
    method: 'POST',
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'anvil_setBalance',
      params: [privateKeyToAccount(deployer).address, '0x56bc75e2d63100000'], // 100 ETH, for gas
    },
  });
  check(funded.json?.result === null, `anvil_setBalance: ${funded.body}`);
  ctx.set('DEPLOYER_KEY', deployer);
  ctx.set('chainDir', ctx.freshDir('chain'));
  withSecretsKey(join(ctx.value('chainDir'), 'etc/coinop'));
}

/**
 * `dir` (an /etc/coinop of the docs) made, holding the secrets key secrets.md has the operator
 * make first: `operator-key generate|import` seal with it and never make one themselves.
 */
function withSecretsKey(dir) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'secrets-key'), randomBytes(32).toString('hex'), { mode: 0o600 });
  return dir;
}

export const OPERATOR = [
  {
    file: 'README.md',
    block: 'npm install coinop',
    session: 'operator',
    fill: install(
      'npm install coinop',
      'npm install @coinop/server-sdk',
      'npm install @coinop/game-sdk',
    ),
    commands: {
      'npx coinop serve --demo': {
        server: {
          name: 'installed-arcade',
          keep: true,
          async check(ctx) {
            await demoArcadeServed(ctx, arcadeDir(ctx));
            const page = await ctx.http('http://127.0.0.1:8082/');
            check(page.status === 200 && /<div id="root">/.test(page.body), 'no web app on :8082');
          },
        },
      },
    },
    after(ctx) {
      const modules = join(arcadeDir(ctx), 'node_modules');
      for (const name of ['coinop', '@coinop/server-sdk', '@coinop/game-sdk']) {
        check(existsSync(join(modules, name, 'package.json')), `${name} is not installed`);
      }
      check(!existsSync(join(modules, '@foundry-rs')), 'the install carries Anvil');
    },
  },
  {
    file: 'docs/operating/cli.md',
    block: 'set -euo pipefail',
    session: 'operator',
    needs: ['installed-arcade'],
    env: () => ({ wallet: privateKeyToAccount(generatePrivateKey()).address }),
    commands: {
      'coinop admin hst mint': {
        after(result) {
          const mint = jsonOf(result.output);
          check(mint.balance === '100' && mint.transferId, `minted: ${result.output}`);
        },
      },
    },
  },
  { stop: 'installed-arcade' },
  {
    file: 'docs/operating/cli.md',
    block: 'coinop migrate status',
    part: ['coinop migrate status'],
    session: 'operator',
    commands: {
      'coinop migrate status': {
        after: (result) =>
          check(
            /^applied\s+001_/m.test(result.output) && !/pending/.test(result.output),
            result.output,
          ),
      },
    },
  },
  {
    file: 'docs/operating/cli.md',
    block: 'coinop migrate status',
    part: ['coinop migrate apply'],
    session: 'operator',
    needs: ['postgres'],
    fill: database('postgres://coinop:secret@db.internal:5432/coinop'),
    commands: {
      'coinop migrate apply': {
        after: (result) => check(/^applied\s+001_/m.test(result.output), result.output),
      },
    },
  },
  {
    file: 'docs/operating/cli.md',
    block: 'coinop db copy',
    session: 'operator',
    needs: ['postgres'],
    fill: database('postgres://coinop:secret@db.internal:5432/coinop'),
  },
  {
    file: 'docs/operating/postgres.md',
    block: 'coinop db copy',
    session: 'operator',
    needs: ['postgres'],
    fill: database('postgres://coinop:secret@db.internal:5432/coinop'),
    commands: {
      'coinop serve': { server: { check: (ctx) => demoArcadeServed(ctx, arcadeDir(ctx)) } },
    },
  },
  {
    file: 'packages/server/README.md',
    block: 'npm install coinop',
    part: ['npm install coinop', 'npx coinop serve --demo', 'npx coinop --help'],
    session: 'operator',
    fill: install('npm install coinop'),
    commands: {
      'npx coinop serve --demo': {
        server: { check: (ctx) => demoArcadeServed(ctx, arcadeDir(ctx)) },
      },
      'npx coinop --help': {
        after: (result) => check(/^Usage: coinop /m.test(result.output), 'no usage printed'),
      },
    },
  },
  {
    file: 'packages/server/README.md',
    block: 'npm install coinop',
    part: ['npx coinop serve --database-url'],
    session: 'operator',
    needs: ['postgres'],
    fill: database('postgres://coinop:secret@localhost:5432/coinop'),
    commands: { 'npx coinop serve --database-url': { server: { check: apiReady } } },
  },
  {
    file: 'README.md',
    block: 'npx coinop serve --database-url',
    session: 'operator',
    needs: ['postgres'],
    fill: database('postgres://coinop:secret@localhost:5432/coinop'),
    commands: {
      'npx coinop serve --database-url': { server: { check: apiReady } },
      'DATABASE_URL=': { server: { check: apiReady } },
    },
  },
  {
    file: 'docs/operating/postgres.md',
    block: 'coinop serve --database-url',
    session: 'operator',
    needs: ['postgres'],
    fill: database('postgres://coinop:secret@db.internal:5432/coinop'),
    commands: {
      'coinop serve --database-url': { server: { check: apiReady } },
      'DATABASE_URL=': { server: { check: apiReady } },
    },
  },
  {
    file: 'docs/operating/deploy.md',
    block: 'coinop serve --database-url',
    session: 'operator',
    needs: ['postgres'],
    fill: database('postgres://coinop:…@db.internal/coinop'),
    commands: {
      'coinop serve': {
        server: {
          async check(ctx) {
            await apiReady(ctx);
            const openapi = await ctx.http(`${API}/openapi.json`);
            const url = openapi.json?.servers?.[0]?.url;
            check(url === 'https://api.arcade.example', `the OpenAPI servers say ${url}`);
          },
        },
      },
    },
  },
  {
    file: 'docs/operating/cli.md',
    block: 'npx coinop serve',
    session: 'operator',
    commands: {
      'npx coinop serve': { server: { check: apiReady } },
      'npx coinop serve --demo': {
        server: { check: (ctx) => demoArcadeServed(ctx, arcadeDir(ctx)) },
      },
      'npx coinop serve --host 0.0.0.0': {
        skip:
          "port 443 on every interface, with the reader's certificate and database host " +
          '(TLS is served in packages/server/test/cli/serve.test.ts)',
      },
    },
  },
  {
    file: 'packages/protocol/README.md',
    block: 'npm install',
    session: 'operator',
    fill: install('npm install @coinop/protocol'),
  },
  {
    file: 'packages/server-sdk/README.md',
    block: 'npm install',
    session: 'operator',
    fill: install('npm install @coinop/server-sdk'),
  },
  {
    file: 'docs/operating/deploy.md',
    block: 'mkdir arcade && cd arcade',
    session: 'operator',
    needs: ['postgres'],
    cwd(ctx) {
      ctx.set('deployDir', ctx.freshDir('deploy'));
      return ctx.value('deployDir');
    },
    fill: {
      ...install('npm install coinop'),
      ...database('postgres://coinop:secret@db.internal:5432/coinop'),
    },
    commands: {
      'npm init -y && npm install coinop': {
        after(result, ctx) {
          check(
            !/npm warn/i.test(result.output),
            `the install printed a warning:\n${result.output}`,
          );
          const modules = join(ctx.value('deployDir'), 'arcade/node_modules');
          check(existsSync(join(modules, 'coinop')), `coinop is not in ${modules}`);
          check(!existsSync(join(modules, '@foundry-rs')), 'the install carries Anvil');
        },
      },
      'npx coinop serve': { server: { check: apiReady } },
    },
  },
  {
    file: 'docs/operating/secrets.md',
    block: 'mkdir -p /etc/coinop',
    session: 'operator',
    cwd: (ctx) => ctx.freshDir('secrets'),
    fill: { '/etc/coinop': (ctx) => ctx.freshPath('etc-coinop') },
    commands: {
      'coinop serve --secrets-key-file': { server: { check: apiReady } },
      'COINOP_SECRETS_KEY=': {
        // Another way to give the key, so another arcade: the first one's data is sealed with
        // the file's key.
        cwd: (ctx) => ctx.freshDir('secrets-env'),
        server: { check: apiReady },
      },
    },
  },
  {
    file: 'docs/concepts/chain.md',
    block: 'coinop admin chain operator-key generate',
    session: 'operator',
    cwd: (ctx) => ctx.freshDir('operator-key'),
    env: (ctx) => {
      const key = generatePrivateKey().slice(2);
      ctx.set('importedAddress', privateKeyToAccount(`0x${key}`).address);
      return { KEY: key };
    },
    commands: {
      // Two ways to make the key file, each on a machine of its own.
      'coinop admin chain operator-key generate': {
        fill: { '/etc/coinop': (ctx) => withSecretsKey(ctx.freshPath('etc-coinop')) },
        after: (result) => check(isAddress(jsonOf(result.output).address ?? ''), result.output),
      },
      'printf \'%s\' "$KEY"': {
        fill: { '/etc/coinop': (ctx) => withSecretsKey(ctx.freshPath('etc-coinop')) },
        after(result, ctx) {
          const { address } = jsonOf(result.output);
          check(address === ctx.value('importedAddress'), `imported ${address}`);
        },
      },
    },
  },
  {
    file: 'docs/operating/chain.md',
    block: 'coinop admin chain operator-key generate',
    part: ['coinop admin chain operator-key generate'],
    session: 'operator',
    before: startChain,
    cwd: (ctx) => ctx.value('chainDir'),
    fill: { '/etc/coinop': (ctx) => join(ctx.value('chainDir'), 'etc/coinop') },
    commands: {
      'coinop admin chain operator-key generate': {
        after(result, ctx) {
          const { address } = jsonOf(result.output);
          check(isAddress(address ?? ''), result.output);
          ctx.set('operatorAddress', address);
        },
      },
    },
  },
  {
    file: 'docs/operating/chain.md',
    block: 'printf \'%s\' "$DEPLOYER_KEY"',
    session: 'operator',
    needs: ['anvil'],
    cwd: (ctx) => ctx.value('chainDir'),
    env: (ctx) => ({ DEPLOYER_KEY: ctx.value('DEPLOYER_KEY') }),
    fill: {
      'https://rpc.example.com/KEY': RPC,
      '0xSAFE…': () => privateKeyToAccount(generatePrivateKey()).address,
      '0xOPERATOR…': (ctx) => ctx.value('operatorAddress'),
      ' [--hst 0xHST…]': '', // optional: without it, HST is deployed too
    },
    commands: {
      printf: {
        after(result, ctx) {
          const deployed = jsonOf(result.output);
          check(isAddress(deployed.vault ?? '') && isAddress(deployed.hst ?? ''), result.output);
          ctx.set('deployment', deployed);
        },
      },
    },
  },
  {
    file: 'docs/operating/chain.md',
    block: 'coinop admin chain operator-key generate',
    part: ['coinop serve …'],
    session: 'operator',
    needs: ['anvil'],
    cwd: (ctx) => ctx.value('chainDir'),
    fill: {
      'coinop serve …': `coinop serve --chain-rpc-url ${RPC}`,
      '0x…': (ctx) => ctx.value('deployment').vault,
      '--chain-start-block N': (ctx) =>
        `--chain-start-block ${ctx.value('deployment').vaultBlockNumber}`,
      '/etc/coinop': (ctx) => join(ctx.value('chainDir'), 'etc/coinop'),
    },
    commands: {
      'coinop serve …': {
        server: {
          async check(ctx) {
            const token = ctx.adminToken(join(ctx.value('chainDir'), '.coinop'));
            const deadline = Date.now() + 30_000;
            let chain;
            do {
              chain = (await ctx.http(`${API}/admin/chain`, { token })).json;
              if (chain?.state === 'running') break;
              await new Promise((resolve) => setTimeout(resolve, 500));
            } while (Date.now() < deadline);
            check(
              chain?.state === 'running',
              `the watcher is ${chain?.state}: ${JSON.stringify(chain)}`,
            );
            check(
              chain.vaultAddress === ctx.value('deployment').vault,
              `vault ${chain.vaultAddress}`,
            );
            check(
              chain.withdrawals?.operatorAddress === ctx.value('operatorAddress') &&
                chain.withdrawals.waiting === null,
              `the sender: ${JSON.stringify(chain.withdrawals)}`,
            );
          },
        },
      },
    },
  },
  { stop: 'anvil' },
];
