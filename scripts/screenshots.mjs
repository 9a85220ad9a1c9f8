// Refreshes the committed screenshots of the web app (docs/screenshots/) from the ones the browser
// tests saved in test-output/screenshots/:
//   npm run screenshots                  # every listed screenshot (the folder is rewritten)
//   npm run screenshots -- tournament    # only those whose names start with these words
// Run the browser tests that make them first (the table below names each test file). Each listed
// screenshot is cut to at most `maxHeight` pixels (a full page can be 5,000 px tall on a phone;
// the top of it is what a reader needs) and written as a palette PNG, so the set stays small
// enough to keep in git. Missing screenshots are named, with the test that makes them, and the
// script exits 1 without writing anything.
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FROM = join(ROOT, 'test-output/screenshots');
const TO = join(ROOT, 'docs/screenshots');

/** Desktop pages are 1366 px wide, phones 360 px; taller than this, a page is cut. */
const MAX_HEIGHT = { desktop: 2000, phone: 2200 };

/**
 * Every page of the arcade, desktop and phone. `name` is the file in both folders; `test` is
 * the test that saves it (a short name for packages/server/test/web/<name>.browser.test.ts); `maxHeight` overrides the default cut
 * (a dialog is shown at the viewport's height, as the player sees it).
 */
const SLIDE_TEST = 'examples/slide/test/slide.browser.test.ts';
const SCREENSHOTS = [
  { name: 'web-catalog-desktop', test: 'catalog', device: 'desktop' },
  { name: 'web-catalog', test: 'catalog', device: 'phone' },
  { name: 'game-page-ready', test: 'arcade', device: 'desktop' },
  { name: 'approval', test: 'arcade', device: 'desktop', maxHeight: 900 },
  { name: 'game-page-scored', test: 'arcade', device: 'desktop' },
  { name: 'game-page-scored-phone', test: 'arcade', device: 'phone' },
  { name: 'game-page-phone', test: 'arcade', device: 'phone' },
  { name: 'connect-dialog-phone', test: 'arcade', device: 'phone', maxHeight: 740 },
  { name: 'high-low-sign-in', test: 'issue-17-bridge', device: 'desktop', maxHeight: 900 },
  { name: 'high-low', test: 'issue-17-bridge', device: 'desktop' },
  { name: 'high-low-phone', test: 'issue-17-bridge', device: 'phone' },
  { name: 'board-desktop', test: 'boards', device: 'desktop' },
  { name: 'board-phone', test: 'boards', device: 'phone' },
  { name: 'history-desktop', test: 'boards', device: 'desktop' },
  { name: 'history-phone', test: 'boards', device: 'phone' },
  { name: 'account', test: 'account', device: 'desktop' },
  { name: 'account-withdrawn', test: 'account', device: 'phone' },
  { name: 'faucet-result', test: 'issue-28-money-views', device: 'desktop' },
  { name: 'faucet-result-phone', test: 'issue-28-money-views', device: 'phone' },
  { name: 'account-deposited', test: 'issue-28-money-views', device: 'desktop' },
  { name: 'long-account-phone', test: 'issue-28-money-views', device: 'phone' },
  { name: 'long-approval-phone', test: 'issue-28-money-views', device: 'phone', maxHeight: 740 },
  { name: 'long-admin-players-phone', test: 'issue-28-money-views', device: 'phone' },
  { name: 'consent-account-allowances', test: 'consent', device: 'desktop' },
  { name: 'consent-account-allowances-phone', test: 'consent', device: 'phone' },
  { name: 'consent-game-allowance', test: 'consent', device: 'desktop' },
  { name: 'consent-game-allowance-phone', test: 'consent', device: 'phone' },
  { name: 'testing-invitations', test: 'consent', device: 'desktop' },
  { name: 'testing-invitations-phone', test: 'consent', device: 'phone' },
  { name: 'testing-invitation-game-page', test: 'consent', device: 'desktop' },
  { name: 'portal-dashboard-desktop', test: 'portal', device: 'desktop' },
  { name: 'portal-dashboard', test: 'portal', device: 'phone' },
  { name: 'portal-register-desktop', test: 'portal', device: 'desktop' },
  { name: 'portal-register', test: 'portal', device: 'phone' },
  { name: 'portal', test: 'portal', device: 'desktop' },
  { name: 'portal-game', test: 'portal', device: 'phone' },
  { name: 'portal-tournaments-desktop', test: 'portal-tournaments', device: 'desktop' },
  { name: 'portal-tournaments-phone', test: 'portal-tournaments', device: 'phone' },
  { name: 'portal-verifier', test: 'portal-verifier', device: 'desktop' },
  { name: 'portal-sections-overview', test: 'issue-31-portal-sections', device: 'desktop' },
  { name: 'portal-sections-overview-phone', test: 'issue-31-portal-sections', device: 'phone' },
  { name: 'portal-sections-boards', test: 'issue-31-portal-sections', device: 'desktop' },
  { name: 'portal-sections-stats-phone', test: 'issue-31-portal-sections', device: 'phone' },
  { name: 'portal-publish-section-pending', test: 'publish', device: 'desktop' },
  { name: 'portal-publish-section-declined', test: 'publish', device: 'desktop' },
  { name: 'preview-game', test: 'publish', device: 'desktop' },
  { name: 'preview-game-phone', test: 'publish', device: 'phone' },
  { name: 'cli-login-choose-wallet-desktop', test: 'wallets', device: 'desktop' },
  { name: 'cli-login-approve-desktop', test: 'wallets', device: 'desktop' },
  { name: 'cli-login-approve-phone', test: 'wallets', device: 'phone' },
  { name: 'cli-login-approved-desktop', test: 'wallets', device: 'desktop' },
  { name: 'cli-login-approved-phone', test: 'wallets', device: 'phone' },
  { name: 'import-key-invalid-desktop', test: 'wallets', device: 'desktop' },
  { name: 'import-key-replace-desktop', test: 'wallets', device: 'desktop' },
  { name: 'import-key-replace-phone', test: 'wallets', device: 'phone' },
  { name: 'wallet-chooser-phone', test: 'wallets', device: 'phone' },
  { name: 'admin-sign-in', test: 'publish', device: 'desktop' },
  { name: 'admin-sign-in-phone', test: 'publish', device: 'phone' },
  { name: 'admin-queue', test: 'publish', device: 'desktop' },
  { name: 'admin-queue-phone', test: 'publish', device: 'phone' },
  { name: 'admin-games', test: 'publish', device: 'desktop' },
  { name: 'admin-games-phone', test: 'publish', device: 'phone' },
  { name: 'admin-reviews', test: 'issue-30-reviews', device: 'desktop' },
  { name: 'admin-reviews-phone', test: 'issue-30-reviews', device: 'phone' },
  { name: 'admin-reviews-voided', test: 'issue-30-reviews', device: 'desktop' },
  { name: 'portal-reviews', test: 'issue-30-reviews', device: 'desktop' },
  { name: 'portal-reviews-phone', test: 'issue-30-reviews', device: 'phone' },
  { name: 'review-report-dialog', test: 'issue-30-reviews', device: 'desktop', maxHeight: 900 },
  { name: 'review-report-sent', test: 'issue-30-reviews', device: 'desktop', maxHeight: 900 },
  { name: 'account-history-voided', test: 'issue-30-reviews', device: 'desktop' },
  { name: 'admin-review-replay', test: 'issue-30-evidence', device: 'desktop' },
  { name: 'admin-review-replay-phone', test: 'issue-30-evidence', device: 'phone' },
  { name: 'portal-review-replay', test: 'issue-30-evidence', device: 'desktop' },
  { name: 'admin-players', test: 'publish', device: 'desktop' },
  { name: 'admin-player', test: 'publish', device: 'desktop' },
  { name: 'admin-player-phone', test: 'publish', device: 'phone' },
  { name: 'admin-developers', test: 'publish', device: 'desktop' },
  { name: 'admin-ledger', test: 'publish', device: 'desktop' },
  { name: 'admin-ledger-phone', test: 'publish', device: 'phone' },
  { name: 'admin-amounts-ledger', test: 'issue-27-admin-amounts', device: 'desktop' },
  { name: 'admin-amounts-player-phone', test: 'issue-27-admin-amounts', device: 'phone' },
  { name: 'console-ledger-filtered', test: 'issue-31-console-ledger', device: 'desktop' },
  { name: 'console-ledger-phone', test: 'issue-31-console-ledger', device: 'phone' },
  { name: 'admin-keys', test: 'publish', device: 'desktop' },
  { name: 'console-tournaments-desktop', test: 'console-tournaments', device: 'desktop' },
  { name: 'console-tournaments-phone', test: 'console-tournaments', device: 'phone' },
  { name: 'web-demo-reverse', test: 'demo', device: 'desktop' },
  { name: 'web-demo-reverse-phone', test: 'demo', device: 'phone' },
  { name: 'tournament-catalog-desktop', test: 'tournaments', device: 'desktop' },
  { name: 'tournament-catalog-phone', test: 'tournaments', device: 'phone' },
  { name: 'tournament-page-desktop', test: 'tournaments', device: 'desktop' },
  { name: 'tournament-page-phone', test: 'tournaments', device: 'phone' },
  { name: 'tournament-ended-desktop', test: 'tournaments', device: 'desktop' },
  { name: 'tournament-ended-phone', test: 'tournaments', device: 'phone' },
  { name: 'tournament-game-page', test: 'tournaments', device: 'desktop' },
  { name: 'tournament-game-phone', test: 'tournaments', device: 'phone' },
  {
    name: 'example-reaction-demo',
    test: 'examples/reaction/test/reaction.browser.test.ts',
    device: 'phone',
  },
  { name: 'example-slide-run', test: SLIDE_TEST, device: 'desktop' },
  { name: 'example-slide-refused', test: SLIDE_TEST, device: 'desktop' },
  { name: 'example-slide-phone', test: SLIDE_TEST, device: 'phone' },
  { name: 'profile-account-desktop', test: 'issue-31-profiles', device: 'desktop' },
  { name: 'profile-account-phone', test: 'issue-31-profiles', device: 'phone' },
  { name: 'profile-board-desktop', test: 'issue-31-profiles', device: 'desktop' },
  { name: 'profile-board-phone', test: 'issue-31-profiles', device: 'phone' },
  { name: 'profile-player-page-desktop', test: 'issue-31-profiles', device: 'desktop' },
  { name: 'profile-player-page-phone', test: 'issue-31-profiles', device: 'phone' },
  { name: 'profile-console-reset-desktop', test: 'issue-31-profiles', device: 'desktop' },
  { name: 'profile-console-reset-phone', test: 'issue-31-profiles', device: 'phone' },
  { name: 'issue-31-portal-dashboard-chart', test: 'issue-31-charts', device: 'desktop' },
  { name: 'issue-31-portal-dashboard-chart-phone', test: 'issue-31-charts', device: 'phone' },
  { name: 'issue-31-console-activity', test: 'issue-31-charts', device: 'desktop' },
  { name: 'issue-31-console-activity-phone', test: 'issue-31-charts', device: 'phone' },
];

async function main() {
  // With name prefixes, only those are refreshed and the rest of the folder is kept.
  const prefixes = process.argv.slice(2);
  const chosen =
    prefixes.length === 0
      ? SCREENSHOTS
      : SCREENSHOTS.filter(({ name }) => prefixes.some((p) => name.startsWith(p)));
  if (chosen.length === 0) {
    console.error(`screenshots: no listed screenshot starts with ${prefixes.join(', ')}`);
    process.exitCode = 1;
    return;
  }
  const missing = chosen.filter(({ name }) => !isFile(join(FROM, `${name}.png`)));
  if (missing.length > 0) {
    const tests = [...new Set(missing.map((s) => s.test))];
    console.error(
      `screenshots: missing in test-output/screenshots/: ${missing.map((s) => s.name).join(', ')}\n` +
        `run their browser tests first: ${tests.map(testFile).join(' ')}`,
    );
    process.exitCode = 1;
    return;
  }
  // Only the listed files: one dropped from the list goes from the folder too.
  if (prefixes.length === 0) rmSync(TO, { recursive: true, force: true });
  mkdirSync(TO, { recursive: true });
  let total = 0;
  for (const shot of chosen) {
    const from = join(FROM, `${shot.name}.png`);
    const to = join(TO, `${shot.name}.png`);
    const image = sharp(from);
    const { width, height } = await image.metadata();
    const maxHeight = shot.maxHeight ?? MAX_HEIGHT[shot.device];
    if (height > maxHeight) image.extract({ left: 0, top: 0, width, height: maxHeight });
    // A palette of at most 256 colours (libimagequant) at the highest effort: the dark theme's
    // flat panels lose nothing visible, and a page shrinks to about a third.
    await image.png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 }).toFile(to);
    total += statSync(to).size;
  }
  const files = readdirSync(TO).length;
  console.log(`screenshots: ${files} files in docs/screenshots/, ${(total / 1024).toFixed(0)} kB`);
}

/** A test named by its short name is one of packages/server/test/web/; others by their path. */
function testFile(test) {
  return test.includes('/') ? test : `packages/server/test/web/${test}.browser.test.ts`;
}

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

await main();
