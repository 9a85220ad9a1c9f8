import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WORKSPACES = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }
).workspaces.map((workspace) => resolve(REPO_ROOT, workspace));

// Test code: every workspace's test/ folder, and the kit itself.
const TEST_ROOTS = [
  ...WORKSPACES.map((workspace) => join(workspace, 'test')),
  join(REPO_ROOT, 'packages/testkit/src'),
];

// Static and dynamic imports, re-exports, and files located with `new URL(path, import.meta.url)`.
const RELATIVE_SPECIFIER =
  /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g;

function workspaceOf(path: string): string | undefined {
  return WORKSPACES.find((workspace) => path === workspace || path.startsWith(workspace + sep));
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* sourceFiles(path);
    } else if (/\.(ts|tsx|js|mjs)$/.test(entry.name)) {
      yield path;
    }
  }
}

it('no test reaches into another workspace by a relative path; shared fixtures are in the kit', () => {
  const crossings: string[] = [];
  for (const root of TEST_ROOTS.filter((dir) => existsSync(dir))) {
    for (const file of sourceFiles(root)) {
      for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_SPECIFIER)) {
        const specifier = match[1] ?? '';
        const target = workspaceOf(resolve(dirname(file), specifier));
        if (target !== undefined && target !== workspaceOf(file)) {
          crossings.push(`${relative(REPO_ROOT, file)}: ${specifier}`);
        }
      }
    }
  }
  expect(crossings).toEqual([]);
});
