import type { ArcadeSettings, BridgeLeader, Game } from '@coinop/protocol';
import { hstUnits } from '../account/hst-amounts.js';
import type {
  ApprovalDecision,
  ApprovalPrompt,
  ArcadeHost,
  OpenedPlay,
  ScoreOutcome,
} from '../bridge/arcade-host.js';
import type { LoginHost } from '../bridge/login-approval.js';
import { playableTier } from '../bridge/playable-tier.js';
import type { WalletPlayProgress } from '../bridge/wallet-play-progress.js';
import { avatarSource } from '../components/avatar.js';
import { scoreText } from '../components/score.js';
import type { Session } from '../session/session.js';
import type { useGameTournaments } from '../tournaments/game-tournaments.js';
import { readRoundTop } from '../tournaments/tournament-api.js';
import type { GameNotice } from './use-game-notice.js';

/** How long after a game's last board read the page reads its leaders again. */
const BOARD_READ_SETTLE_MS = 500;

/** An approval dialog on screen and how to answer the game that asked. */
export interface PendingApproval {
  prompt: ApprovalPrompt;
  resolve: (decision: ApprovalDecision) => void;
}

/** What the game page knows now, read fresh by the bridge (which outlives each render). */
export interface LivePage {
  game: Game | null;
  tierId: string;
  session: Session;
  approval: PendingApproval | null;
  chain: ArcadeSettings['chain'] | null;
  tournaments: ReturnType<typeof useGameTournaments>;
}

/** The page's setters and calls the host uses to show what the game did. */
export interface ArcadeHostPage {
  load: (signal?: AbortSignal) => Promise<Game>;
  loginHost: LoginHost;
  /** Opens the wallet connect dialog; true once the player is signed in. */
  signIn: () => Promise<boolean>;
  setWalletPlay: (progress: WalletPlayProgress) => void;
  setApproval: (pending: PendingApproval) => void;
  setNotice: (notice: GameNotice) => void;
  setCelebration: (score: ScoreOutcome | null) => void;
  /** The play the game has now, or null once scored. */
  setOpenPlay: (update: (play: OpenedPlay | null) => OpenedPlay | null) => void;
  countBoardRead: () => void;
  countRoundRead: () => void;
}

/**
 * The game page as the arcade handlers' host: it reads the page through `live` and answers until
 * `signal` aborts (the page leaves the game).
 */
export function createArcadeHost(
  live: { current: LivePage },
  page: ArcadeHostPage,
  signal: AbortSignal,
): ArcadeHost {
  const roundOf = (id: string) => roundIn(live.current, id);
  // Board reads come in bursts (a page, the next, around-me): the page reads its leaders once
  // the burst is over, not once a read.
  let boardReadTimer: ReturnType<typeof setTimeout> | undefined;
  signal.addEventListener('abort', () => clearTimeout(boardReadTimer));
  const host: ArcadeHost = {
    game: () => {
      const g = live.current.game;
      if (!g) throw new Error('the game is not loaded');
      return { id: g.id, name: g.name };
    },
    tier: () => tierOf(live.current, live.current.game, live.current.tierId),
    player: () => {
      const { state } = live.current.session;
      return state.status === 'signed-in'
        ? {
            id: state.player.playerId,
            signer: state.wallet,
            balanceUnits: hstUnits(state.player.balance),
          }
        : null;
    },
    signIn: page.signIn,
    chainWallet: () => chainWalletOf(live.current),
    walletProgress: page.setWalletPlay,
    signal,
    ask: (prompt) => askApproval(live, page, prompt),
    post: (path, body) => live.current.session.call(path, body),
    get: (path) => live.current.session.call(path),
    leaders: () => readLeaders(live, page),
    tell: (text, tone) => {
      page.setNotice({ text, tone });
      page.setCelebration(null);
      // A refused round play may mean the round filled or closed: read the rounds again.
      if (tone === 'error' && roundOf(live.current.tierId)) live.current.tournaments.reload();
    },
    login: page.loginHost,
    // A game has one play going: a new one means it left the last (a foul, say).
    playOpened: (play) => page.setOpenPlay(() => play),
    playScored: (playId) => page.setOpenPlay((play) => (play?.id === playId ? null : play)),
    boardRead: () => {
      clearTimeout(boardReadTimer);
      boardReadTimer = setTimeout(() => {
        // As after a leaderboard read: the game's server may have charged the player too.
        page.countBoardRead();
        host.changed();
      }, BOARD_READ_SETTLE_MS);
    },
    changed: (score?: ScoreOutcome) => {
      void live.current.session.moved();
      void page.load().catch(() => undefined);
      if (roundOf(live.current.tierId)) {
        live.current.tournaments.reload();
        page.countRoundRead();
      }
      if (score) tellScore(live.current, page, score);
    },
  };
  return host;
}

function roundIn(live: LivePage, id: string) {
  return live.tournaments.open.find((o) => o.round.id === id);
}

function tierOf(live: LivePage, g: Game | null, id: string) {
  const tier = g?.leaderboards.find((b) => b.id === id);
  return tier ? playableTier(tier) : roundIn(live, id)?.tier;
}

function chainWalletOf(live: LivePage) {
  const { chain: settings, session: current } = live;
  const { state } = current;
  // A tournament round's plays are ledger plays: the vault cannot lock one (its payout
  // waits for the close).
  if (roundIn(live, live.tierId)) return null;
  if (settings === null || state.status !== 'signed-in' || state.player.wallet === null) {
    return null;
  }
  return {
    settings,
    kind: state.kind,
    address: state.player.wallet,
    canSign: state.wallet !== null,
  };
}

function askApproval(
  live: { current: LivePage },
  page: ArcadeHostPage,
  prompt: ApprovalPrompt,
): Promise<ApprovalDecision> {
  return new Promise<ApprovalDecision>((resolve) => {
    // One dialog at a time: a game asking again meanwhile is told no.
    if (live.current.approval !== null) return resolve('rejected');
    const round = prompt.kind === 'play' ? roundIn(live.current, prompt.tier.id) : undefined;
    const pending = {
      prompt: round
        ? {
            ...prompt,
            tournament: { name: round.tournament.name, endsAt: round.round.endsAt },
          }
        : prompt,
      resolve,
    };
    live.current.approval = pending;
    page.setApproval(pending);
  });
}

async function readLeaders(
  live: { current: LivePage },
  page: ArcadeHostPage,
): Promise<BridgeLeader[]> {
  // A server-side game reads its board after a round its server charged: the balance and
  // what the game spent of the allowance today too.
  void live.current.session.moved();
  page.countBoardRead();
  const fresh = await page.load();
  const round = roundIn(live.current, live.current.tierId);
  if (round) {
    const top = await readRoundTop(round.tournament, round.round.id, round.tier.leadersMax);
    return top.entries.map((e): BridgeLeader => ({
      txid: '',
      userId: e.playerId,
      score: e.score,
      displayName: e.name,
      avatarUrl: e.avatar,
    }));
  }
  const tier = tierOf(live.current, fresh, live.current.tierId);
  return (tier?.leaders ?? []).map((l): BridgeLeader => ({
    txid: '',
    userId: l.playerId,
    score: l.score,
    displayName: l.name,
    avatarUrl: avatarSource(l.avatar, l.playerId),
  }));
}

function tellScore(live: LivePage, page: ArcadeHostPage, score: ScoreOutcome): void {
  const unit = live.game?.scoreUnit ?? '';
  const round = roundIn(live, live.tierId);
  page.setNotice({
    text: round
      ? `Your score ${scoreText(score.score, unit)} ranks #${score.leaderRank} in ${round.tournament.name}. Prizes are paid when the round ends.`
      : describeScore(score, unit),
    tone: 'info',
  });
  page.setCelebration(score.isWinner ? score : null);
}

function describeScore(score: ScoreOutcome, unit: string): string {
  const yours = `Your score ${scoreText(score.score, unit)} ranks #${score.leaderRank}`;
  return score.isWinner
    ? `${yours}: you made the leaderboard!`
    : `${yours}: not on the leaderboard this time.`;
}
