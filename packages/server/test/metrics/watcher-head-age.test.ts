import { describe, expect, it } from 'vitest';
import { ArcadeMetrics, type ChainProgress } from '../../src/metrics/arcade-metrics.js';

/**
 * Operator review, finding 7: with the chain's RPC down, `coinop admin chain status` said
 * `failing` while every chain metric stayed green: the lag is computed from the head as last
 * seen, so it never grows. The age of that head does: metrics.md's CoinopChainWatcherStalled
 * alert reads it.
 */

const VAULT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

function ageOf(text: string): number | undefined {
  const found = new RegExp(
    `^coinop_chain_watcher_head_age_seconds\\{vault="${VAULT}"\\} (\\S+)$`,
    'm',
  ).exec(text);
  return found ? Number(found[1]) : undefined;
}

describe('coinop_chain_watcher_head_age_seconds', () => {
  it('is absent before the watcher got a head', async () => {
    const metrics = new ArcadeMetrics();
    const progress: ChainProgress = {
      lagBlocks: null,
      withdrawalsQueued: 0,
      withdrawalsSent: 0,
      halted: null,
      headSeenAt: null,
    };
    metrics.watchChain(VAULT, async () => progress);
    expect(ageOf((await metrics.render()).body)).toBeUndefined();
  });

  it('grows with the time since the head was last seen, while the lag stays 0', async () => {
    const metrics = new ArcadeMetrics();
    // The RPC went away 90 s ago: the last round that reached it read up to its head.
    const headSeenAt = new Date(Date.now() - 90_000);
    metrics.watchChain(VAULT, async () => ({
      lagBlocks: 0,
      withdrawalsQueued: 0,
      withdrawalsSent: 0,
      halted: false,
      headSeenAt,
    }));
    const first = (await metrics.render()).body;
    expect(first).toMatch(
      new RegExp(`^coinop_chain_watcher_lag_blocks\\{vault="${VAULT}"\\} 0$`, 'm'),
    );
    const age = ageOf(first)!;
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(100);
    // Counted at each scrape, not when the (cached) checkpoint was read.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(ageOf((await metrics.render()).body)! - age).toBeGreaterThanOrEqual(1);
  });
});
