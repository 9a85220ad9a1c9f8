import { readdir, readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What a player's browser downloads before the first page shows: the entry chunk of the built
 * web app (`web-dist`, as `npm start` serves it). Under Vite's warning line (500 kB), so the
 * build stays quiet (issue 28), and without the code only developers, operators or the account
 * page need: the portal, the console and the chain wallet load when opened.
 */
const WEB_DIST = fileURLToPath(new URL('../../web-dist/', import.meta.url));
const ENTRY_BYTES_MAX = 500 * 1024;

describe('the web app a player downloads first', () => {
  it('has an entry chunk under 500 kB that does not preload the portal, console or wallet', async () => {
    const html = await readFile(`${WEB_DIST}index.html`, 'utf8');
    const entry = /<script type="module"[^>]* src="\/(assets\/index-[^"]+\.js)"/.exec(html)?.[1];
    expect(entry, 'index.html names its entry chunk').toMatch(/^assets\/index-.+\.js$/);
    const { size } = await stat(`${WEB_DIST}${entry}`);
    expect(size).toBeGreaterThan(10 * 1024);
    expect(size).toBeLessThan(ENTRY_BYTES_MAX);
    const chunks = await readdir(`${WEB_DIST}assets`);
    for (const lazy of ['portal-page', 'admin-console', 'account-page', 'daily-chart']) {
      expect(chunks.filter((f) => f.startsWith(`${lazy}-`) && f.endsWith('.js'))).toHaveLength(1);
      expect(html, `${lazy} is not preloaded`).not.toContain(lazy);
    }
  });
});
