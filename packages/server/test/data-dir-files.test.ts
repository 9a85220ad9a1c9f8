import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileOnce } from '../src/data-dir-files.js';

describe('a file created once in the data directory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coinop-files-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is created by exactly one of many concurrent starts, whole, mode 0600, nothing left aside', async () => {
    const path = join(dir, 'admin-token');
    const contents = Array.from({ length: 20 }, (_, i) => `token-${i}-${'x'.repeat(4096)}\n`);
    const created = await Promise.all(contents.map((c) => createFileOnce(path, c)));
    const winners = contents.filter((_, i) => created[i]);
    expect(winners).toHaveLength(1);
    expect(await readFile(path, 'utf8')).toBe(winners[0]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['admin-token']);
    // A later start keeps it.
    expect(await createFileOnce(path, 'another\n')).toBe(false);
    expect(await readFile(path, 'utf8')).toBe(winners[0]);
  });
});
