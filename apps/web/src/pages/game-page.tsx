import { useId, useRef, type RefObject } from 'react';
import type { Game } from '@coinop/protocol';
import { AllowancePanel, ALLOWANCE_ANCHOR } from '../allowances/allowance-panel.js';
import { useLoginApproval } from '../bridge/login-approval.js';
import { ConnectDialog } from '../components/account-menu.js';
import { ApprovalDialog } from '../components/approval-dialog.js';
import { GameFrame } from '../components/game-frame.js';
import '../components/discovery.css';
import { BoardPays } from '../game/board-pays.js';
import { GameHeader } from '../game/game-header.js';
import { GameAbout } from '../game/game-about.js';
import { GameMissing } from '../game/game-missing.js';
import { GameNoticeLine } from '../game/game-notice.js';
import { LeadersPanel } from '../game/leaders-panel.js';
import { OpenPlayNotice } from '../game/open-play-notice.js';
import { TierPicker } from '../game/tier-picker.js';
import { useArcadeBridge } from '../game/use-arcade-bridge.js';
import { useGame } from '../game/use-game.js';
import { useGameNotice } from '../game/use-game-notice.js';
import { useLeaveGuard } from '../game/use-leave-guard.js';
import { useLeftOpenPlays } from '../game/use-left-open-plays.js';
import { useRoundChoice } from '../game/use-round-choice.js';
import { WalletPlayCard } from '../game/wallet-play-card.js';
import { leaveQuestion } from '../game/leave-question.js';
import { PreviewBanner } from '../preview/preview-banner.js';
import { useSession } from '../session/session.js';
import {
  GameTournamentList,
  RoundLeaders,
  useGameTournaments,
} from '../tournaments/game-tournaments.js';

/**
 * One game: choose a tier (spec 4.3), see its current leaders, and play it in the frame beside
 * them (above the fold on a laptop, stacked on a phone).
 * The page is the game's host: its bridge answers the game's plays, scores, leaderboard reads
 * and payments for the signed-in player, asking them to approve plays and payments first (in
 * chain mode a play may be locked from the player's wallet instead of the balance). Below
 * the game, the player's daily allowance for it (`#allowance`, where a refused play sends them).
 */
export function GamePage({ gameId }: { gameId: string }) {
  const session = useSession();
  const roundIds = useRef(new Set<string>());
  const { game, error, setError, load, viewer, tierId, setTierId } = useGame(gameId, roundIds);
  const tierGroupName = useId();
  const frameBox = useRef<HTMLDivElement>(null);
  const loginApproval = useLoginApproval();
  // The game's tournaments: their open rounds are offered beside the tiers (issue 18).
  const tournaments = useGameTournaments(gameId, game?.published === true);
  roundIds.current = new Set(tournaments.open.map((o) => o.round.id));
  useRoundChoice(game, tierId, setTierId, tournaments.open);
  const playerId = session.state.status === 'signed-in' ? session.state.player.playerId : null;
  const notices = useGameNotice(playerId);
  const { setNotice, setCelebration } = notices;
  const bridge = useArcadeBridge({
    game,
    tierId,
    tournaments,
    load,
    loginApproval,
    frameBox,
    setNotice,
    setCelebration,
  });
  // A paid play the game has not scored, or one a wallet lock is still opening, is lost by
  // leaving: ask first, and show plays left open.
  useLeaveGuard(leaveQuestion(bridge.openPlay, bridge.walletPlay));
  const leftOpen = useLeftOpenPlays(gameId, bridge.openPlay?.id ?? null);

  /**
   * The player picks another tier: what was said about the last one (a score's rank) no longer
   * holds, and the leaders shown become that tier's. The game itself is told here too (the
   * bridge's tier-change event, issue 17).
   */
  const changeTier = (id: string) => {
    setTierId(id);
    notices.clearNotice();
  };

  if (error) {
    return (
      <GameMissing
        gameId={gameId}
        error={error}
        viewer={viewer}
        signedOut={session.state.status === 'signed-out'}
        onAccepted={() => void load(new AbortController().signal).then(() => setError(null))}
      />
    );
  }
  if (!game) {
    return (
      <section className="page">
        <p aria-live="polite">Loading the game…</p>
      </section>
    );
  }

  const tier = game.leaderboards.find((b) => b.id === tierId);
  const chosenRound = tournaments.open.find((o) => o.round.id === tierId);
  return (
    <div className="game-page">
      {!game.published && <PreviewBanner />}
      <GameHeader game={game} />
      <div className="game-layout">
        <section className="tier-panel panel" aria-labelledby={`${tierGroupName}-label`}>
          <h2 id={`${tierGroupName}-label`}>Leaderboard tier</h2>
          <TierPicker
            game={game}
            open={tournaments.open}
            groupName={tierGroupName}
            tierId={tierId}
            onChange={changeTier}
            onElapsed={tournaments.reload}
          />
          <OpenPlayNotice plays={leftOpen} />
          {game.published && tier && <BoardPays game={game} tier={tier} playerId={playerId} />}
          <GameTournamentList tournaments={tournaments.tournaments} />
          <GameNoticeLine
            notice={notices.notice}
            celebration={notices.celebration}
            noticeRef={notices.noticeRef}
          />
          {bridge.walletPlay !== null && <WalletPlayCard progress={bridge.walletPlay} />}
          <p className="panel-links">
            <a href={`#${ALLOWANCE_ANCHOR}`}>What this game may charge you a day</a>
          </p>
        </section>
        <GameStage game={game} frameBox={frameBox} />
        {tier && <LeadersPanel game={game} tier={tier} playerId={playerId} />}
        {chosenRound && <RoundLeaders open={chosenRound} me={playerId} reads={bridge.roundReads} />}
      </div>
      <GameAbout game={game} />
      {/* In preview too: its server's plays of its developer and testers count against it. */}
      <AllowancePanel
        key={loginApproval.approvals}
        gameId={game.id}
        gameName={game.name}
        charged={bridge.boardReads}
      />
      {bridge.approval && (
        <ApprovalDialog prompt={bridge.approval.prompt} onDecide={bridge.decide} />
      )}
      {loginApproval.dialog}
      {bridge.connecting && <ConnectDialog onDone={bridge.connectClosed} />}
    </div>
  );
}

/** The game in its frame, or why it cannot be played yet. */
function GameStage({ game, frameBox }: { game: Game; frameBox: RefObject<HTMLDivElement | null> }) {
  return (
    <div className="game-stage" ref={frameBox}>
      {game.url === '' ? (
        <p className="no-url panel">The developer has not set this game&apos;s URL yet.</p>
      ) : (
        <GameFrame url={game.url} title={`${game.name} (game)`} aspectRatio={game.aspectRatio} />
      )}
    </div>
  );
}
