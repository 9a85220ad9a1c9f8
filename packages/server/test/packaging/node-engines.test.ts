import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// Issue 16: installing on a supported Node prints no EBADENGINE. npm warns when an installed
// package's `engines.node` excludes the running Node, so every package in the lockfile must
// admit the oldest release of each supported line (the newest are admitted by every `>=` range
// that admits the oldest, which the check below also covers for 24).

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const readJson = <T>(path: string): T =>
  JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8')) as T;

/** The oldest release of each supported line, as the README's Node versions say. */
const WORKSPACE_NODES = ['20.19.0', '22.13.0', '24.0.0'];
/**
 * The published packages promise `>=20.19`: their run-time dependencies must admit 22.0 too
 * (the development tools need 22.13, which the workspace's own engines say).
 */
const PUBLISHED_NODES = ['20.19.0', '22.0.0', '22.13.0', '24.0.0', '25.0.0'];

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: Record<string, string> | string[];
  cpu?: string[];
}

/**
 * The processors coinop is installed on (64-bit). npm skips an optional package built for another
 * processor (sharp's 32-bit Windows build, say) without reading its engines.
 */
const SUPPORTED_CPUS = ['x64', 'arm64'];

const lock = readJson<{ packages: Record<string, LockEntry> }>('package-lock.json');
const installed = Object.entries(lock.packages).filter(
  ([path, entry]) =>
    path.includes('node_modules/') &&
    (entry.cpu === undefined || entry.cpu.some((cpu) => SUPPORTED_CPUS.includes(cpu))),
);

/** The packages whose engines.node leaves out one of the versions, with the range. */
function excluding(versions: string[], entries: [string, LockEntry][]): string[] {
  const found: string[] = [];
  for (const [path, entry] of entries) {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.['node'];
    if (range === undefined) continue;
    const left = versions.filter((v) => !semver.satisfies(v, range));
    if (left.length > 0) found.push(`${path}@${entry.version}: ${range} (not ${left.join(', ')})`);
  }
  return found;
}

describe('Node versions', () => {
  it('every installed package admits every supported Node', () => {
    expect(installed.length).toBeGreaterThan(100);
    expect(excluding(WORKSPACE_NODES, installed)).toEqual([]);
  });

  it("the published packages' run-time dependencies admit every Node they promise", () => {
    const runtime = installed.filter(([, entry]) => entry.dev !== true);
    expect(runtime.map(([path]) => path)).toContain('node_modules/fastify');
    expect(excluding(PUBLISHED_NODES, runtime)).toEqual([]);
  });

  it('each package.json says what it supports', () => {
    const root = readJson<{ engines: { node: string } }>('package.json');
    expect(root.engines.node).toBe('^20.19.0 || ^22.13.0 || >=24');
    const published = [
      'packages/protocol',
      'packages/core',
      'packages/contracts',
      'packages/game-sdk',
      'packages/server-sdk',
      'packages/server',
    ];
    for (const dir of published) {
      const pkg = readJson<{ name: string; private?: boolean; engines?: { node: string } }>(
        `${dir}/package.json`,
      );
      expect({ name: pkg.name, private: pkg.private, node: pkg.engines?.node }).toEqual({
        name: pkg.name,
        private: undefined,
        node: '>=20.19',
      });
    }
  });
});
