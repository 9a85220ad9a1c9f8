import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 28: in a fresh clone `npx coinop` was "not found": npm links a workspace's bins before the
// install's own build makes dist/, and a bin whose file is missing then is never linked. And every
// `npm install` ended with npm's notice that two packages' install scripts were not reviewed.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SERVER = join(ROOT, 'packages/server');

async function json(path: string): Promise<Record<string, any>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, any>;
}

describe("the coinop bin in a fresh clone's install", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('is a committed, executable file that the package ships, never a build output', async () => {
    const manifest = await json(join(SERVER, 'package.json'));
    expect(manifest['bin']).toEqual({ coinop: './bin/coinop.js' });
    expect(manifest['files']).toContain('bin');
    const { stdout } = await run('git', ['ls-files', '--stage', 'packages/server/bin/coinop.js'], {
      cwd: ROOT,
    });
    expect(stdout).toMatch(/^100755 [0-9a-f]{40} 0\tpackages\/server\/bin\/coinop\.js\n$/);
  });

  it('runs the built CLI', async () => {
    const { version } = await json(join(SERVER, 'package.json'));
    const { stdout } = await run(process.execPath, [join(SERVER, 'bin/coinop.js'), '--version']);
    expect(stdout).toBe(`${version}\n`);
  });

  it('says to build first when it runs before the build', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coinop-bin-'));
    dirs.push(dir);
    await mkdir(join(dir, 'bin'));
    await copyFile(join(SERVER, 'bin/coinop.js'), join(dir, 'bin/coinop.js'));
    const failed = await run(process.execPath, [join(dir, 'bin/coinop.js'), '--help']).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        `coinop: the CLI is not built (${join(dir, 'dist/cli/main.js')} is missing): run npm ` +
        "run build at the repository's root\n",
    });
  });
});

describe('install scripts', () => {
  it('are allowed for exactly the packages in the lockfile that have them, so npm says nothing', async () => {
    const lock = await json(join(ROOT, 'package-lock.json'));
    const withScripts = Object.entries(lock['packages'] as Record<string, Record<string, unknown>>)
      .filter(([, entry]) => entry['hasInstallScript'] === true)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    const { allowScripts } = await json(join(ROOT, 'package.json'));
    // By name: the lockfile records no resolved URLs, so npm cannot pin an approval to a version.
    expect(allowScripts).toEqual(Object.fromEntries(withScripts.map((name) => [name, true])));
    expect(Object.keys(allowScripts as object).sort()).toEqual(['@foundry-rs/anvil', 'esbuild']);
  });
});
