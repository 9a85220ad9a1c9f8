import { useEffect, useRef, useState, type RefObject } from 'react';
import type { BridgeLeader, Game, Leader } from '@coinop/protocol';
import { useArcadeSettings } from '../arcade-settings.js';
import { avatarSource } from '../components/avatar.js';
import { createArcadeHandlers } from '../bridge/arcade-handlers.js';
import type {
  ApprovalDecision,
  ApprovalPrompt,
  OpenedPlay,
  ScoreOutcome,
} from '../bridge/arcade-host.js';
import { HostBridge } from '../bridge/host-bridge.js';
import type { useLoginApproval } from '../bridge/login-approval.js';
import type { WalletPlayProgress } from '../bridge/wallet-play-progress.js';
import { useToast } from '../components/toasts.js';
import { useLiveBoards } from '../live/live.js';
import { useSession } from '../session/session.js';
import type { useGameTournaments } from '../tournaments/game-tournaments.js';
import { createArcadeHost, type PendingApproval } from './arcade-host.js';
import type { GameNotice } from './use-game-notice.js';
import { useSignInRequest } from './use-sign-in-request.js';

/**
 * What the game page hands the bridge: the page's state and how to show what the game did (the
 * setters must be stable, as React's are: the bridge is not rebuilt for them).
 */
export interface ArcadeBridgePage {
  game: Game | null;
  tierId: string;
  tournaments: ReturnType<typeof useGameTournaments>;
  load: (signal?: AbortSignal) => Promise<Game>;
  loginApproval: ReturnType<typeof useLoginApproval>;
  frameBox: RefObject<HTMLDivElement | null>;
  setNotice: (notice: GameNotice) => void;
  setCelebration: (score: ScoreOutcome | null) => void;
}

/**
 * The game page as the game's host: a bridge answering the game in the frame (plays, scores,
 * leaderboard reads and payments for the signed-in player), the approval dialog it asks through,
 * and what it counts for the page (board reads after which the game's server may have charged
 * the player, round reads, a play being locked from the wallet).
 */
export function useArcadeBridge(page: ArcadeBridgePage) {
  const { game, tierId, tournaments, load, loginApproval, frameBox, setNotice, setCelebration } =
    page;
  const session = useSession();
  const settings = useArcadeSettings();
  const toast = useToast();
  const chain = settings.status === 'loaded' ? settings.settings.chain : null;
  const [approval, setApproval] = useState<PendingApproval | null>(null);
  const [walletPlay, setWalletPlay] = useState<WalletPlayProgress | null>(null);
  // The paid play the game has now: leaving the page while it is open loses it.
  const [openPlay, setOpenPlay] = useState<OpenedPlay | null>(null);
  useEffect(() => {
    if (openPlay === null || openPlay.expiresAt === null) return undefined;
    // A timer's delay is a 32-bit count of milliseconds; a longer TTL is cut, not overflowed.
    const inMs = Math.min(Date.parse(openPlay.expiresAt) - Date.now(), 2 ** 31 - 1);
    const timer = setTimeout(() => setOpenPlay(null), inMs);
    return () => clearTimeout(timer);
  }, [openPlay]);
  // Each time the game reads its board: after a round, its server may have charged the player.
  const [boardReads, setBoardReads] = useState(0);
  const [roundReads, setRoundReads] = useState(0);
  const bridgeRef = useRef<HostBridge | null>(null);
  const signInRequest = useSignInRequest();
  const { signIn } = signInRequest;

  // The bridge lives as long as the game's URL; it reads everything else through refs, fresh.
  const live = useRef({ game, tierId, session, approval, chain, tournaments });
  live.current = { game, tierId, session, approval, chain, tournaments };
  const gameUrl = game?.url ?? '';

  useEffect(() => {
    if (gameUrl === '') return;
    const leaving = new AbortController();
    const host = createArcadeHost(
      live,
      {
        load,
        loginHost: loginApproval.host,
        signIn,
        setWalletPlay,
        setApproval,
        setNotice,
        setCelebration,
        setOpenPlay,
        countBoardRead: () => setBoardReads((n) => n + 1),
        countRoundRead: () => setRoundReads((n) => n + 1),
      },
      leaving.signal,
    );
    const bridge = new HostBridge({
      host: window,
      frame: () => frameBox.current?.querySelector('iframe')?.contentWindow ?? null,
      gameUrl,
      handlers: createArcadeHandlers(host),
    });
    bridgeRef.current = bridge;
    return () => {
      bridgeRef.current = null;
      leaving.abort();
      bridge.close();
    };
  }, [gameUrl, load, loginApproval.host, signIn, frameBox, setNotice, setCelebration]);

  // The game hears of a new tier (bridge `tierChange`), if it asked to.
  useEffect(() => {
    bridgeRef.current?.tierChanged();
  }, [tierId]);

  useBoardUpdates(game?.id ?? null, bridgeRef);

  const decide = (decision: ApprovalDecision) => {
    const pending = live.current.approval;
    live.current.approval = null;
    setApproval(null);
    pending?.resolve(decision);
    if (pending) toast(approvalToast(pending.prompt, decision), 'info');
  };

  return {
    approval,
    decide,
    walletPlay,
    openPlay,
    boardReads,
    roundReads,
    /** A signed-out player's game asked to play, pay or sign in: the connect dialog is open. */
    connecting: signInRequest.asking,
    connectClosed: signInRequest.closed,
  };
}

/**
 * The game hears of each board the page's live stream moves (bridge `boardUpdate`), if it asked
 * to: each board once per change, and all of them again to a bridge built anew.
 */
function useBoardUpdates(gameId: string | null, bridgeRef: RefObject<HostBridge | null>) {
  const boards = useLiveBoards(gameId);
  const told = useRef<{ bridge: HostBridge | null; boards: Map<string, readonly Leader[]> }>({
    bridge: null,
    boards: new Map(),
  });
  useEffect(() => {
    const bridge = bridgeRef.current;
    if (bridge === null || gameId === null) return;
    if (told.current.bridge !== bridge) told.current = { bridge, boards: new Map() };
    for (const [leaderboardId, leaders] of boards) {
      if (told.current.boards.get(leaderboardId) === leaders) continue;
      told.current.boards.set(leaderboardId, leaders);
      bridge.boardChanged({ leaderboardId, leaderboard: leaders.map(bridgeLeader) });
    }
  });
}

function bridgeLeader(leader: Leader): BridgeLeader {
  return {
    txid: '',
    userId: leader.playerId,
    score: leader.score,
    displayName: leader.name,
    avatarUrl: avatarSource(leader.avatar, leader.playerId),
  };
}

/** What the player just decided, confirmed in a toast; the wallet's signature comes next. */
function approvalToast(prompt: ApprovalPrompt, decision: ApprovalDecision): string {
  if (decision === 'rejected') return 'Not approved: nothing was charged.';
  return prompt.kind === 'play' ? 'Play approved.' : 'Payment approved.';
}
