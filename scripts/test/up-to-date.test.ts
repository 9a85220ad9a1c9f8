import { mkdtemp, rm, unlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashInputs, runUnlessUpToDate, type BuildStep } from '../up-to-date.mjs';

// `npm start` skips the build steps whose inputs did not change (issue 16): the skip must never
// leave a stale output behind.
describe('runUnlessUpToDate', () => {
  let root: string;
  let runs = 0;
  const step: BuildStep = {
    name: 'web app',
    inputs: ['src', 'config.json'],
    outputs: ['out/index.html'],
    run: () => {
      runs += 1;
    },
  };
  const build = async (force = false) => {
    const ran = await runUnlessUpToDate({ root, stampDir: join(root, 'stamps'), step, force });
    // The step's output, as a real step would leave it.
    await mkdir(join(root, 'out'), { recursive: true });
    await writeFile(join(root, 'out/index.html'), 'built');
    return ran;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'coinop-up-to-date-'));
    await mkdir(join(root, 'src/pages'), { recursive: true });
    await writeFile(join(root, 'src/main.ts'), 'main');
    await writeFile(join(root, 'src/pages/home.ts'), 'home');
    await writeFile(join(root, 'config.json'), '{}');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('runs the first time, then skips until an input, an output or --force says otherwise', async () => {
    expect(await build()).toBe(true);
    expect(await build()).toBe(false);

    await writeFile(join(root, 'src/pages/home.ts'), 'home, edited');
    expect(await build()).toBe(true);
    expect(await build()).toBe(false);

    await writeFile(join(root, 'src/pages/about.ts'), 'a new file');
    expect(await build()).toBe(true);

    await unlink(join(root, 'out/index.html'));
    expect(await build()).toBe(true);

    expect(await build(true)).toBe(true);
    expect(await build()).toBe(false);
    expect(runs).toBe(5);
  });

  it('hashes names and contents: a rename or an edit changes it, a rewrite of the same does not', async () => {
    const before = hashInputs(root, ['src']);
    await writeFile(join(root, 'src/main.ts'), 'main');
    expect(hashInputs(root, ['src'])).toBe(before);
    await writeFile(join(root, 'src/main2.ts'), 'main');
    await unlink(join(root, 'src/main.ts'));
    expect(hashInputs(root, ['src'])).not.toBe(before);
    expect(hashInputs(root, ['src', 'missing-file'])).toBe(hashInputs(root, ['src']));
  });
});
