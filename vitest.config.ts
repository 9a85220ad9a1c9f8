import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'examples/*/test/**/*.test.ts',
      'scripts/test/**/*.test.ts',
    ],
    // Budgets catch a hang, not slowness (speed is measured by npm run bench): they fit a 2-core
    // runner busy with both workers, a Chromium and an Anvil, where the slowest tests take a few
    // times as long as on a quiet machine. A test needing more states its own, above these.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The same for expect.poll: its default second fails a page that is merely slow to paint on
    // a busy runner; waiting longer costs nothing when the thing polled for happens.
    expect: { poll: { timeout: 15_000 } },
    allowOnly: false,
    // Each file opens its own databases; two workers match the machine's two cores.
    pool: 'forks',
    maxWorkers: 2,
  },
});
