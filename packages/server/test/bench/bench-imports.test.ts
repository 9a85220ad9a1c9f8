import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The bench (`npm run bench`) is plain JavaScript over the built server, so nothing type-checks
 * it: a module moved in src/ (as the layering of issue 29 moved createGameClient) broke it
 * silently. Each name a bench file imports from dist/ must be exported there.
 */

const BENCH_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));
const NAMED_IMPORT = /import\s*\{([^}]*)\}\s*from\s*'(\.\.\/dist\/[^']+)'/g;

async function distImports(): Promise<{ file: string; module: string; names: string[] }[]> {
  const found = [];
  for (const file of (await readdir(BENCH_DIR)).filter((name) => name.endsWith('.mjs'))) {
    const text = await readFile(join(BENCH_DIR, file), 'utf8');
    for (const [, list, module] of text.matchAll(NAMED_IMPORT)) {
      const names = list!
        .split(',')
        .map((part) => part.trim().split(/\s+as\s+/)[0]!)
        .filter((name) => name !== '' && !name.startsWith('type '));
      found.push({ file, module: module!, names });
    }
  }
  return found;
}

describe('the bench', () => {
  it('imports from the built server only names it exports', async () => {
    const imports = await distImports();
    expect(imports.length).toBeGreaterThan(5);
    const missing: string[] = [];
    for (const { file, module, names } of imports) {
      const exported = (await import(join(BENCH_DIR, module))) as Record<string, unknown>;
      for (const name of names) {
        if (!(name in exported)) missing.push(`${file}: ${module} has no ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
