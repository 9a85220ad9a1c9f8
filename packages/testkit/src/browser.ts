import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Frame,
  type Page,
} from 'playwright-core';
import { expect } from 'vitest';

/** The two sizes every page is tested at: a laptop and a small phone. */
export interface Viewport {
  readonly width: number;
  readonly height: number;
}
export const DESKTOP: Viewport = { width: 1366, height: 900 };
export const PHONE: Viewport = { width: 360, height: 740 };

/** Where the web app keeps the arcade wallet's key (a test imports or reads a known one). */
export const ARCADE_KEY_STORAGE = 'coinop.arcadeWallet.privateKey';

/**
 * Debian's `chromium` package. On a developer's machine without it the browser tests skip, saying
 * so; in CI (`CI` set, as .ci/run does) a missing browser fails them instead of passing quietly.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const NO_CHROMIUM_REASON =
  `${CHROMIUM_PATH} not found: browser tests skipped ` + '(apt-get install -y chromium)';
export const hasChromium = isChromiumAt(CHROMIUM_PATH, process.env['CI']);

/**
 * Whether Chromium is at `path`; throws when it is not and `ci` is set, because CI must run the
 * browser tests.
 */
export function isChromiumAt(path: string, ci: string | undefined): boolean {
  const found = existsSync(path);
  if (!found && ci) throw new Error(`${path} not found, and CI must run the browser tests`);
  return found;
}

// Every browser suite launches with these flags: root in a container, so no sandbox and no GPU;
// nothing phones home during a test.
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Headless Chromium with a fresh temporary profile, plus any extra command-line flags. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}

/** The named child frame of a page, once it exists. */
export async function childFrame(page: Page, name: string): Promise<Frame> {
  const handle = await page.waitForSelector(`iframe[name="${name}"]`, { state: 'attached' });
  const frame = await handle.contentFrame();
  if (frame === null) throw new Error(`iframe ${name} has no frame`);
  return frame;
}

// Build outputs and test-output/ are found from the repository root, not through another
// workspace's files.
const REPO_ROOT = new URL('../../../', import.meta.url);

/** Screenshots land in the repository's gitignored test-output/screenshots/. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('test-output/screenshots/', REPO_ROOT));

/** The game SDK's browser bundle (`npm run build` makes it), as a game page loads it. */
export const GAME_SDK_BUNDLE = fileURLToPath(
  new URL('packages/game-sdk/dist/game-sdk.min.js', REPO_ROOT),
);

const BUILT = [
  fileURLToPath(new URL('packages/server/web-dist/index.html', REPO_ROOT)),
  GAME_SDK_BUNDLE,
];

/**
 * Builds the web app (into the server's web-dist/) and the game SDK's browser bundle when they
 * are missing. `npm install` (and `npm run build`) build both; a checkout that has not yet still
 * runs the browser tests.
 */
export function ensureBrowserBuilds(): void {
  if (BUILT.some((output) => !existsSync(output))) {
    execFileSync(process.execPath, ['scripts/build.mjs'], {
      cwd: fileURLToPath(REPO_ROOT),
      stdio: 'ignore',
    });
  }
}

/** The images on the page that finished loading but show nothing (a broken-image icon). */
export async function brokenImages(page: Page): Promise<string[]> {
  return page.$$eval('img', (images) =>
    images
      .filter((img) => img.complete && img.naturalWidth === 0)
      .map((img) => img.currentSrc || img.src),
  );
}

/**
 * Saves a full-page screenshot as test-output/screenshots/<name>.png and returns its path. CSS
 * animations are finished first, so it shows the page as it settles (a toast that just moved
 * was caught mid fade-in, the page showing through it).
 */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = `${SCREENSHOT_DIR}${name}.png`;
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

let axeSource: Promise<string> | undefined;

/**
 * The page's serious and critical accessibility violations, by axe-core. axe is evaluated through
 * the DevTools protocol, which a page's CSP (script-src 'self') does not block as it would an
 * inline <script>. Fails the test when axe checked almost nothing, so a pass is never vacuous.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if ((await page.evaluate('typeof window.axe')) === 'undefined') {
    await page.evaluate(await axeSource);
  }
  const results = (await page.evaluate('window.axe.run(document)')) as {
    violations: {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: unknown[] }[];
    }[];
    passes: unknown[];
  };
  expect(results.passes.length).toBeGreaterThan(10);
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

/**
 * What every page of the web app owes a person at both sizes: axe finds nothing serious, nothing
 * scrolls sideways, no image is broken. Checks at 1366 and 360 px, saving `<name>.png` and
 * `<name>-phone.png`, and leaves the page at 1366.
 */
export async function checkAtBothSizes(page: Page, name: string): Promise<void> {
  for (const [size, suffix] of [
    [DESKTOP, ''],
    [PHONE, '-phone'],
  ] as const) {
    await checkAtSize(page, size, `${name}${suffix}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** `checkAtBothSizes` at one size: axe, no sideways scroll, no broken image, a screenshot. */
export async function checkAtSize(page: Page, size: Viewport, name: string): Promise<void> {
  await page.setViewportSize(size);
  expect(await seriousViolations(page), name).toEqual([]);
  expect(
    await page.evaluate('document.documentElement.scrollWidth'),
    `${name} scrolls sideways`,
  ).toBeLessThanOrEqual(size.width);
  expect(await brokenImages(page), name).toEqual([]);
  await saveScreenshot(page, name);
}

/**
 * Opens the header's account menu (the chip with the player's avatar and balance), where the
 * Account and Allowances links, the faucet and Sign out are.
 */
export async function openAccountMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await page.locator('.account-menu:popover-open').waitFor();
}

/**
 * Opens a view of a game in the developer portal (issue 31: Overview, Details, Boards,
 * Tournaments, Integration, Publishing, Reviews, Stats) by its link in the game's section strip,
 * and waits until the strip marks it as the current page.
 */
export async function openGameSection(page: Page, label: string): Promise<void> {
  const link = page
    .getByRole('main')
    .getByRole('navigation', { name: 'Game sections' })
    .getByRole('link', { name: label, exact: true });
  await link.click();
  await page
    .getByRole('main')
    .getByRole('navigation', { name: 'Game sections' })
    .locator(`a[aria-current="page"]`, { hasText: label })
    .waitFor();
}

/**
 * A new page at `url` signed in with the arcade wallet holding `key` (a private key the test
 * knows, put where the web app keeps the one it makes): Connect wallet, Arcade wallet, then the
 * header's balance. `permissions` are granted to the context first (e.g. the clipboard's).
 */
export async function openSignedIn(
  browser: Browser,
  options: { url: string; key: string; viewport: Viewport; permissions?: string[] },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: options.viewport });
  if (options.permissions) await context.grantPermissions(options.permissions);
  const page = await context.newPage();
  await page.addInitScript({
    content: `localStorage.setItem(${JSON.stringify(ARCADE_KEY_STORAGE)}, ${JSON.stringify(options.key)});`,
  });
  await page.goto(options.url);
  await page.getByRole('button', { name: 'Connect wallet' }).first().click();
  await page.getByRole('button', { name: 'Arcade wallet' }).click();
  await page.getByTestId('balance').waitFor();
  return { context, page };
}
