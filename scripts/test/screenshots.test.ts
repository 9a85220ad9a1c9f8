import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READMES = ['README.md', 'apps/web/README.md'];

/** The targets of a Markdown file's links and images that point into docs/screenshots/. */
function screenshotLinks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const targets = [...text.matchAll(/(?:\]\(|src=")([^)"\s]*screenshots\/[^)"\s]+)/g)];
  return targets.map((m) => resolve(dirname(join(ROOT, file)), m[1] ?? ''));
}

describe('the committed screenshots', () => {
  it('are linked from the READMEs by relative links that resolve, never to test-output/', () => {
    for (const file of READMES) {
      const links = screenshotLinks(file);
      expect(links.length, file).toBeGreaterThan(0);
      for (const link of links) {
        expect(link.startsWith(join(ROOT, 'docs/screenshots/')), `${file}: ${link}`).toBe(true);
        expect(existsSync(link), `${file}: ${link}`).toBe(true);
      }
    }
  });

  it('are each named in scripts/screenshots.mjs, so `npm run screenshots` keeps them current', () => {
    const script = readFileSync(join(ROOT, 'scripts/screenshots.mjs'), 'utf8');
    const files = readdirSync(join(ROOT, 'docs/screenshots'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(script).toContain(`name: '${file.replace(/\.png$/, '')}'`);
  });
});
