// Where the docs' commands run: a fresh clone of the checkout (the README's reader), and a
// project that installed the packed packages (the operator of docs/operating/). Each block runs in
// a new shell of its session.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { check } from './context.mjs';

const exec = promisify(execFile);

/** The packages docs/operating/deploy.md tells an operator to install, in dependency order. */
export const PUBLISHED = [
  '@coinop/protocol',
  '@coinop/core',
  '@coinop/contracts',
  '@coinop/game-sdk',
  '@coinop/server-sdk',
  'coinop',
];

/**
 * The environment a reader's terminal has: this one without what the checker itself was started
 * with (npm's run-script variables, COINOP_* settings, DATABASE_URL: the docs set their own), with
 * `extraPath` first on PATH. npm asks the registry nothing it need not: the cache (filled by the
 * checkout's own install) is used first, and there is no audit or funding request.
 */
export function readerEnv(extraPath) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|COINOP_|DATABASE_URL$|INIT_CWD$|NODE_OPTIONS$)/i.test(key)) env[key] = value;
  }
  return {
    ...env,
    PATH: `${extraPath}:${env.PATH ?? ''}`,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

/** A git command in `cwd`; its trimmed output. */
export async function git(cwd, ...args) {
  const { stdout } = await exec('git', args, { cwd });
  return stdout.trim();
}

export const SESSIONS = {
  clone: {
    description:
      'a fresh clone of the checkout (its HEAD), where the README is followed; `coinop` is ' +
      'node_modules/.bin/coinop, as `npx coinop` runs it',
    cwd: (ctx) => ctx.clone,
    env: (ctx) => readerEnv(join(ctx.clone, 'node_modules/.bin')),
    async setup(ctx, print) {
      const head = await git(ctx.checkout, 'rev-parse', 'HEAD');
      print(`$ git clone ${ctx.checkout} ${ctx.clone}   # at ${head}`);
      await exec('git', ['clone', '--quiet', '--no-checkout', ctx.checkout, ctx.clone]);
      await exec('git', ['checkout', '--quiet', '--detach', head], { cwd: ctx.clone });
    },
  },
  operator: {
    description:
      'a project outside the repository that installs the packages `npm pack` made of the ' +
      "clone's workspaces; `coinop` is its node_modules/.bin/coinop, as after a global install",
    cwd: (ctx) => join(ctx.operator, 'arcade'),
    env: (ctx) => readerEnv(join(ctx.operator, 'arcade/node_modules/.bin')),
    async setup(ctx, print) {
      mkdirSync(ctx.tarballDir, { recursive: true });
      mkdirSync(join(ctx.operator, 'arcade'), { recursive: true });
      // The clone's install built every package (dist/, web-dist/, the contracts' artifacts).
      const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', ctx.tarballDir];
      print(`$ npm ${args.join(' ')} ${PUBLISHED.map((name) => `-w ${name}`).join(' ')}`);
      const { stdout } = await exec(
        'npm',
        [...args, ...PUBLISHED.flatMap((name) => ['-w', name])],
        {
          cwd: ctx.clone,
          env: readerEnv(''),
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      const packed = JSON.parse(stdout);
      check(packed.length === PUBLISHED.length, `npm pack made ${packed.length} tarballs`);
      ctx.setTarballs(packed);
      for (const { filename, size } of packed)
        print(`  │ ${filename} (${(size / 1e6).toFixed(1)} MB)`);
    },
  },
};
