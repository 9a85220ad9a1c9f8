import { readdir, readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What a player's browser downloads before the first page shows: the entry chunk of the built
 * web app (`web-dist`, as `npm start` serves it). It carries React and the catalog at `/`; every
 * other page, the portal, the console, the chain wallet and the arcade wallet's signing load when
 * opened. The entry was 468 kB with every page in it and 292 kB after they were split out
 * (docs/benchmarks.md, "The web app's entry chunk"); the budget leaves about 15% above that, so
 * a page that slips back into the entry fails here rather than on a player's phone.
 */
const WEB_DIST = fileURLToPath(new URL('../../web-dist/', import.meta.url));
const ENTRY_BYTES_MAX = 330 * 1024;
/** Chunks loaded when their page or dialog opens (each named after its module). */
const LAZY_CHUNKS = [
  'portal-page',
  'admin-console',
  'account-page',
  'daily-chart',
  'chain-wallet',
  'arcade-wallet',
  'import-key-dialog',
  'game-page',
  'demo-page',
  'developer-page',
  'board-page',
  'tournament-page',
  'player-page',
  'cli-login-page',
  'allowances-page',
  'testing-page',
];

describe('the web app a player downloads first', () => {
  it('has an entry chunk under 330 kB that preloads no other page, console or wallet', async () => {
    const html = await readFile(`${WEB_DIST}index.html`, 'utf8');
    const entry = /<script type="module"[^>]* src="\/(assets\/index-[^"]+\.js)"/.exec(html)?.[1];
    expect(entry, 'index.html names its entry chunk').toMatch(/^assets\/index-.+\.js$/);
    const { size } = await stat(`${WEB_DIST}${entry}`);
    expect(size).toBeGreaterThan(10 * 1024);
    expect(size).toBeLessThan(ENTRY_BYTES_MAX);
    const chunks = await readdir(`${WEB_DIST}assets`);
    for (const lazy of LAZY_CHUNKS) {
      expect(chunks.filter((f) => f.startsWith(`${lazy}-`) && f.endsWith('.js'))).toHaveLength(1);
      expect(html, `${lazy} is not preloaded`).not.toContain(lazy);
    }
  });
});
