import type { BridgeLeader } from '@coinop/protocol';
import type { HostBridgeHandlers } from './host-bridge.js';

/**
 * The demo arcade's answers (spec 1.4): fixed mock data, every approval granted with a made-up
 * id, and nothing sent anywhere, so a developer can try an integration without an account.
 */

/** The demo gameId a game may use; the demo accepts any other gameId as well. */
export const DEMO_GAME_ID = '00000000-0000-4000-8000-000000000000';

export interface DemoTier {
  id: string;
  name: string;
  costHst: number;
  leaders: BridgeLeader[];
}

export const DEMO_TIERS: readonly [DemoTier, ...DemoTier[]] = [
  {
    id: 'demo-practice',
    name: 'Practice',
    costHst: 1,
    leaders: [
      { txid: 'demo-play-1', userId: 'demo-player-1', score: 4200, displayName: 'Ada' },
      { txid: 'demo-play-2', userId: 'demo-player-2', score: 3100, displayName: 'Grace' },
      { txid: 'demo-play-3', userId: 'demo-player-3', score: 1800, displayName: 'Linus' },
    ],
  },
  {
    id: 'demo-high-stakes',
    name: 'High stakes',
    costHst: 10,
    leaders: [
      { txid: 'demo-play-4', userId: 'demo-player-4', score: 9900, displayName: 'Margaret' },
      { txid: 'demo-play-5', userId: 'demo-player-2', score: 7500, displayName: 'Grace' },
    ],
  },
];

/** Handlers that approve everything; `tier()` names the tier whose leaders a game is sent. */
export function createDemoHandlers(tier: () => DemoTier): HostBridgeHandlers {
  return {
    play: () => Promise.resolve({ playId: randomUuid() }),
    submitScore: (playId) => Promise.resolve({ playId }),
    getLeaderboard: () => Promise.resolve(tier().leaders.map((leader) => ({ ...leader }))),
    hstTransfer: () => Promise.resolve({ txid: `demo-tx-${randomHex(16)}` }),
  };
}

/** A v4 UUID; `crypto.randomUUID` exists only in secure contexts, a demo may be served over http. */
export function randomUuid(): string {
  const hex = randomHex(16);
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return (
    `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-` +
    `${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
  );
}

function randomHex(bytes: number): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, '0')).join('');
}
