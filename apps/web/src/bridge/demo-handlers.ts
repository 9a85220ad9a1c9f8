import type {
  BoardEntry,
  BoardPage,
  BridgeLeader,
  BridgeTier,
  ScoreDisplay,
} from '@coinop/protocol';
import type { HostBridgeHandlers } from './host-bridge.js';

/**
 * The demo arcade's answers (spec 1.4): fixed mock data, every approval granted with a made-up
 * id, and nothing sent anywhere, so a developer can try an integration without an account. A
 * submitted score joins the mock board of its play's tier as the demo player's, kept in the page
 * only, so the developer sees where it would rank under the board's order.
 */

/** The demo gameId a game may use; the demo accepts any other gameId as well. */
export const DEMO_GAME_ID = '00000000-0000-4000-8000-000000000000';

/** The player id and name the demo gives the developer trying their game. */
export const DEMO_PLAYER = { userId: 'demo-you', displayName: 'You (demo)' } as const;

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

/** The demo player's best score on a tier, and the play that set it. */
export interface DemoBest {
  playId: string;
  score: number;
}

/** A score the game submitted to the demo, and where it ranks on its tier's mock board. */
export interface DemoScore {
  tierId: string;
  playId: string;
  score: number;
  /** 1-based rank of the demo player's best on the board after this score. */
  rank: number;
  /** Whether this score is the demo player's new best on the tier. */
  isBest: boolean;
}

/** Whether `a` is a better score than `b` on a board of this order. */
export function isBetterScore(a: number, b: number, order: ScoreDisplay): boolean {
  return order === 'REVERSE' ? a < b : a > b;
}

/**
 * A tier's mock leaders with the demo player's best among them, best first under `order`
 * (NORMAL: higher is better; REVERSE: lower). Equal scores keep the mock leaders first.
 */
export function demoLeaders(tier: DemoTier, order: ScoreDisplay, best?: DemoBest): BridgeLeader[] {
  const leaders = tier.leaders.map((leader) => ({ ...leader }));
  if (best !== undefined) leaders.push({ txid: best.playId, score: best.score, ...DEMO_PLAYER });
  // Array.prototype.sort is stable: ties stay in the order above.
  return leaders.sort((a, b) => (order === 'REVERSE' ? a.score - b.score : b.score - a.score));
}

/** A mock board as the board routes answer it: exact ranks, best first. */
export function demoBoard(tier: DemoTier, order: ScoreDisplay, best?: DemoBest): BoardEntry[] {
  return demoLeaders(tier, order, best).map((leader, i) => ({
    rank: i + 1,
    playerId: leader.userId,
    name: leader.displayName ?? leader.userId,
    avatar: leader.avatarUrl ?? '',
    score: leader.score,
  }));
}

/** A page of a mock board; the demo's cursor is the number of rows already read. */
export function demoBoardPage(
  tierId: string,
  board: readonly BoardEntry[],
  cursor: string | undefined,
  limit: number,
): BoardPage {
  const from = cursor?.startsWith('demo.') ? Number(cursor.slice(5)) || 0 : 0;
  const entries = board.slice(from, from + limit);
  const next = from + entries.length;
  return {
    leaderboardId: tierId,
    players: board.length,
    entries,
    nextCursor: next < board.length ? `demo.${next}` : null,
  };
}

/** A demo tier as the bridge names a tier. */
export function demoBridgeTier(tier: DemoTier): BridgeTier {
  return {
    id: tier.id,
    name: tier.name,
    cost: tier.costHst,
    currency: 'HST',
    formattedCostString: `${tier.costHst} HST`,
  };
}

/** What the demo page holds: the chosen tier, the board order and the demo player's bests. */
export interface DemoState {
  tier: DemoTier;
  order: ScoreDisplay;
  bests: ReadonlyMap<string, DemoBest>;
}

/**
 * Handlers that approve everything. `state()` is read per request; `scored` receives each
 * submitted score with the bests it leads to, which the page keeps (nothing leaves the page).
 */
export function createDemoHandlers(
  state: () => DemoState,
  scored: (score: DemoScore, bests: ReadonlyMap<string, DemoBest>) => void,
): HostBridgeHandlers {
  // A score counts on the tier its play was opened on, as in the real arcade.
  const tierOfPlay = new Map<string, DemoTier>();
  /** The page's state with the tier a board read names (the chosen one by default). */
  const boardState = (leaderboardId: string | undefined): DemoState => {
    const now = state();
    const named = DEMO_TIERS.find((tier) => tier.id === leaderboardId);
    return named === undefined ? now : { ...now, tier: named };
  };
  return {
    play: () => {
      const playId = randomUuid();
      tierOfPlay.set(playId, state().tier);
      // A seed as the real arcade draws one (32 bytes), so a seeded game runs in the demo too.
      return Promise.resolve({ playId, seed: randomHex(32) });
    },
    submitScore: (playId, score) => {
      const { tier: current, order, bests } = state();
      const tier = tierOfPlay.get(playId) ?? current;
      const previous = bests.get(tier.id);
      const isBest = previous === undefined || isBetterScore(score, previous.score, order);
      const next = new Map(bests);
      if (isBest) next.set(tier.id, { playId, score });
      const board = demoLeaders(tier, order, next.get(tier.id));
      const rank = board.findIndex((leader) => leader.userId === DEMO_PLAYER.userId) + 1;
      scored({ tierId: tier.id, playId, score, rank, isBest }, next);
      return Promise.resolve({ playId });
    },
    getLeaderboard: () => {
      const { tier, order, bests } = state();
      return Promise.resolve(demoLeaders(tier, order, bests.get(tier.id)));
    },
    hstTransfer: () => Promise.resolve({ txid: `demo-tx-${randomHex(16)}` }),
    tier: () => demoBridgeTier(state().tier),
    // Board reads (issue 18) of the mock boards, the demo player among them once they scored.
    boardPage: ({ leaderboardId, cursor, limit }) => {
      const { tier, order, bests } = boardState(leaderboardId);
      const board = demoBoard(tier, order, bests.get(tier.id));
      return Promise.resolve(demoBoardPage(tier.id, board, cursor, limit ?? 25));
    },
    boardAround: ({ leaderboardId, count }) => {
      const { tier, order, bests } = boardState(leaderboardId);
      const board = demoBoard(tier, order, bests.get(tier.id));
      const at = board.findIndex((entry) => entry.playerId === DEMO_PLAYER.userId);
      const near = count ?? 5;
      return Promise.resolve({
        leaderboardId: tier.id,
        players: board.length,
        above: at < 0 ? [] : board.slice(Math.max(0, at - near), at),
        player: board[at] ?? null,
        below: at < 0 ? [] : board.slice(at + 1, at + 1 + near),
      });
    },
    // The demo signs no one in: a server-side game's login needs a real arcade and player.
    approveLogin: () => Promise.resolve({ approved: false }),
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
