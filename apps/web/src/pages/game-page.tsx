import { Avatar, avatarSource } from '../components/avatar.js';
import { useCallback, useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import type { BridgeLeader, Game } from '@coinop/protocol';
import { AllowancePanel, ALLOWANCE_ANCHOR } from '../allowances/allowance-panel.js';
import { hstUnits } from '../account/hst-amounts.js';
import { TxHash } from '../account/tx-hash.js';
import { ApiError } from '../api.js';
import { loadGameOrPreview } from '../preview/preview-game.js';
import { PreviewBanner } from '../preview/preview-banner.js';
import { InvitationNotice } from '../testing/invitation-notice.js';
import { useArcadeSettings } from '../arcade-settings.js';
import {
  createArcadeHandlers,
  type ApprovalDecision,
  type ApprovalPrompt,
  type ArcadeHost,
  type ScoreOutcome,
} from '../bridge/arcade-handlers.js';
import { HostBridge } from '../bridge/host-bridge.js';
import { playableTier } from '../bridge/playable-tier.js';
import { useLoginApproval } from '../bridge/login-approval.js';
import { walletPlayText, type WalletPlayProgress } from '../bridge/wallet-play-progress.js';
import { ApprovalDialog } from '../components/approval-dialog.js';
import { Cover } from '../components/cover.js';
import { Hst } from '../components/hst.js';
import { useToast } from '../components/toasts.js';
import { GameFrame } from '../components/game-frame.js';
import { Link } from '../router.js';
import { scoreText } from '../components/score.js';
import { useSession } from '../session/session.js';
import {
  GameTournamentList,
  RoundLeaders,
  TournamentTierOptions,
  useGameTournaments,
} from '../tournaments/game-tournaments.js';
import { readRoundTop } from '../tournaments/tournament-api.js';

/** How long after a game's last board read the page reads its leaders again. */
const BOARD_READ_SETTLE_MS = 500;

interface PendingApproval {
  prompt: ApprovalPrompt;
  resolve: (decision: ApprovalDecision) => void;
}

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
  const [game, setGame] = useState<Game | null>(null);
  const [error, setError] = useState<{ missing: boolean; message: string } | null>(null);
  const [tierId, setTierId] = useState('');
  const [approval, setApproval] = useState<PendingApproval | null>(null);
  const [notice, setNotice] = useState<{ text: string; tone: 'info' | 'error' } | null>(null);
  const [walletPlay, setWalletPlay] = useState<WalletPlayProgress | null>(null);
  const [celebration, setCelebration] = useState<ScoreOutcome | null>(null);
  // Each time the game reads its board: after a round, its server may have charged the player.
  const [boardReads, setBoardReads] = useState(0);
  const settings = useArcadeSettings();
  const toast = useToast();
  const chain = settings.status === 'loaded' ? settings.settings.chain : null;
  const tierGroupName = useId();
  const frameBox = useRef<HTMLDivElement>(null);
  const bridgeRef = useRef<HostBridge | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const loginApproval = useLoginApproval();
  // The game's tournaments: their open rounds are offered beside the tiers (issue 18).
  const tournaments = useGameTournaments(gameId, game?.published === true);
  const [roundReads, setRoundReads] = useState(0);
  const roundIds = useRef(new Set<string>());
  roundIds.current = new Set(tournaments.open.map((o) => o.round.id));
  // `?tournament=<id>` (the tournament page's Play) chooses that tournament's open round.
  const wantedTournament = useRef(new URLSearchParams(window.location.search).get('tournament'));
  useEffect(() => {
    const wanted = tournaments.open.find((o) => o.tournament.id === wantedTournament.current);
    if (wanted === undefined) return;
    wantedTournament.current = null;
    setTierId(wanted.round.id);
  }, [tournaments.open]);
  // A chosen round that closed goes back to the first tier.
  useEffect(() => {
    if (game === null || tierId === '' || game.leaderboards.some((b) => b.id === tierId)) return;
    if (tournaments.open.some((o) => o.round.id === tierId)) return;
    setTierId(game.leaderboards[0]?.id ?? '');
  }, [game, tierId, tournaments.open]);

  // Read through a ref: a renewed token must not reload the page (and restart the game).
  const sessionNow = useRef(session);
  sessionNow.current = session;
  const load = useCallback(
    async (signal?: AbortSignal) => {
      const loaded = await loadGameOrPreview(gameId, sessionNow.current, signal);
      setGame(loaded);
      setTierId((current) =>
        loaded.leaderboards.some((b) => b.id === current) || roundIds.current.has(current)
          ? current
          : (loaded.leaderboards[0]?.id ?? ''),
      );
      return loaded;
    },
    [gameId],
  );

  useEffect(() => {
    const abort = new AbortController();
    setGame(null);
    setError(null);
    load(abort.signal).catch((e: unknown) => {
      if (abort.signal.aborted) return;
      const missing = e instanceof ApiError && (e.status === 404 || e.status === 400);
      setError({ missing, message: (e as Error).message });
    });
    return () => abort.abort();
  }, [load]);

  // Signing in on a "not found" page may reveal a preview: the developer's or a tester's game.
  const viewer = session.state.status === 'signed-in' ? session.state.player.playerId : null;
  const missing = error?.missing === true;
  useEffect(() => {
    if (viewer === null || !missing) return;
    const abort = new AbortController();
    load(abort.signal)
      .then(() => setError(null))
      .catch(() => undefined);
    return () => abort.abort();
  }, [viewer, missing, load]);

  useEffect(() => {
    if (game) document.title = `${game.name} · coinop arcade`;
    return () => {
      document.title = 'coinop arcade';
    };
  }, [game]);

  // A message is about the player it was said to: signing in (or out, or as someone else) clears
  // it, so "Connect a wallet to play." goes once a wallet is connected.
  const playerId = session.state.status === 'signed-in' ? session.state.player.playerId : null;
  const clearNotice = useCallback(() => {
    setNotice(null);
    setCelebration(null);
  }, []);
  useEffect(clearNotice, [playerId, clearNotice]);
  // A problem is also shown where the player is looking when the message is out of sight (on a
  // phone it sits above the game, away from its Play button); in sight, it is said once. The
  // toast goes with the message.
  useEffect(() => {
    if (notice?.tone !== 'error' || inSight(noticeRef.current)) return undefined;
    return toast(notice.text, 'error', { announce: false });
  }, [notice, toast]);

  /**
   * The player picks another tier: what was said about the last one (a score's rank) no longer
   * holds, and the leaders shown become that tier's. The game itself is told here too (the
   * bridge's tier-change event, issue 17).
   */
  const changeTier = (id: string) => {
    setTierId(id);
    clearNotice();
  };

  // The bridge lives as long as the game's URL; it reads everything else through refs, fresh.
  const live = useRef({ game, tierId, session, approval, chain, tournaments });
  live.current = { game, tierId, session, approval, chain, tournaments };
  const gameUrl = game?.url ?? '';

  useEffect(() => {
    if (gameUrl === '') return;
    const roundOf = (id: string) => live.current.tournaments.open.find((o) => o.round.id === id);
    const tierOf = (g: Game | null, id: string) => {
      const tier = g?.leaderboards.find((b) => b.id === id);
      return tier ? playableTier(tier) : roundOf(id)?.tier;
    };
    const leaving = new AbortController();
    // Board reads come in bursts (a page, the next, around-me): the page reads its leaders once
    // the burst is over, not once a read.
    let boardReadTimer: ReturnType<typeof setTimeout> | undefined;
    leaving.signal.addEventListener('abort', () => clearTimeout(boardReadTimer));
    const host: ArcadeHost = {
      game: () => {
        const g = live.current.game;
        if (!g) throw new Error('the game is not loaded');
        return { id: g.id, name: g.name };
      },
      tier: () => tierOf(live.current.game, live.current.tierId),
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
      chainWallet: () => {
        const { chain: settings, session: current } = live.current;
        const { state } = current;
        // A tournament round's plays are ledger plays: the vault cannot lock one (its payout
        // waits for the close).
        if (roundOf(live.current.tierId)) return null;
        if (settings === null || state.status !== 'signed-in' || state.player.wallet === null) {
          return null;
        }
        return {
          settings,
          kind: state.kind,
          address: state.player.wallet,
          canSign: state.wallet !== null,
        };
      },
      walletProgress: setWalletPlay,
      signal: leaving.signal,
      ask: (prompt) =>
        new Promise<ApprovalDecision>((resolve) => {
          // One dialog at a time: a game asking again meanwhile is told no.
          if (live.current.approval !== null) return resolve('rejected');
          const round = prompt.kind === 'play' ? roundOf(prompt.tier.id) : undefined;
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
          setApproval(pending);
        }),
      post: (path, body) => live.current.session.call(path, body),
      get: (path) => live.current.session.call(path),
      leaders: async () => {
        // A server-side game reads its board after a round its server charged: the balance and
        // what the game spent of the allowance today too.
        void live.current.session.moved();
        setBoardReads((n) => n + 1);
        const fresh = await load();
        const round = roundOf(live.current.tierId);
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
        const tier = tierOf(fresh, live.current.tierId);
        return (tier?.leaders ?? []).map((l): BridgeLeader => ({
          txid: '',
          userId: l.playerId,
          score: l.score,
          displayName: l.name,
          avatarUrl: avatarSource(l.avatar, l.playerId),
        }));
      },
      tell: (text, tone) => {
        setNotice({ text, tone });
        setCelebration(null);
        // A refused round play may mean the round filled or closed: read the rounds again.
        if (tone === 'error' && roundOf(live.current.tierId)) live.current.tournaments.reload();
      },
      login: loginApproval.host,
      boardRead: () => {
        clearTimeout(boardReadTimer);
        boardReadTimer = setTimeout(() => {
          // As after a leaderboard read: the game's server may have charged the player too.
          setBoardReads((n) => n + 1);
          host.changed();
        }, BOARD_READ_SETTLE_MS);
      },
      changed: (score?: ScoreOutcome) => {
        void live.current.session.moved();
        void load().catch(() => undefined);
        if (roundOf(live.current.tierId)) {
          live.current.tournaments.reload();
          setRoundReads((n) => n + 1);
        }
        if (score) {
          const unit = live.current.game?.scoreUnit ?? '';
          const round = roundOf(live.current.tierId);
          setNotice({
            text: round
              ? `Your score ${scoreText(score.score, unit)} ranks #${score.leaderRank} in ${round.tournament.name}. Prizes are paid when the round ends.`
              : describeScore(score, unit),
            tone: 'info',
          });
          setCelebration(score.isWinner ? score : null);
        }
      },
    };
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
  }, [gameUrl, load, loginApproval.host]);

  // The game hears of a new tier (bridge `tierChange`), if it asked to.
  useEffect(() => {
    bridgeRef.current?.tierChanged();
  }, [tierId]);

  const decide = (decision: ApprovalDecision) => {
    const pending = live.current.approval;
    live.current.approval = null;
    setApproval(null);
    pending?.resolve(decision);
    if (pending) toast(approvalToast(pending.prompt, decision), 'info');
  };

  if (error) {
    const notFound = (
      <>
        <h1>{error.missing ? 'Game not found' : 'Could not load the game'}</h1>
        <p role="alert">{error.missing ? 'This game is not in the arcade.' : error.message}</p>
        {error.missing && session.state.status === 'signed-out' && (
          <p>Developing or testing this game? Connect your wallet to preview it.</p>
        )}
      </>
    );
    return (
      <section className="page">
        {error.missing && viewer !== null ? (
          // A game the player is invited to test says so, rather than "not found" (issue 27).
          <InvitationNotice
            gameId={gameId}
            onAccepted={() => void load(new AbortController().signal).then(() => setError(null))}
            fallback={notFound}
          />
        ) : (
          notFound
        )}
        <p>
          <Link href="/">Back to the games</Link>
        </p>
      </section>
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
  const lowerWins = game.scoreDisplay === 'REVERSE';
  return (
    <div className="game-page">
      {!game.published && <PreviewBanner />}
      <header className="game-title">
        <div className="cover-frame">
          <Cover url={game.coverUrl} name={game.name} />
        </div>
        <div>
          <h1>{game.name}</h1>
          {game.tagLine !== '' && <p className="tag-line">{game.tagLine}</p>}
          <ul className="game-facts" aria-label="About this game">
            {game.category !== '' && <li className="chip">{game.category}</li>}
            <li className="chip">{lowerWins ? 'Lowest score wins' : 'Highest score wins'}</li>
          </ul>
        </div>
      </header>
      <div className="game-layout">
        <section className="tier-panel panel" aria-labelledby={`${tierGroupName}-label`}>
          <h2 id={`${tierGroupName}-label`}>Leaderboard tier</h2>
          {game.leaderboards.length === 0 && tournaments.open.length === 0 ? (
            <p>This game has no tiers yet.</p>
          ) : (
            <div
              className="tier-options"
              role="radiogroup"
              aria-labelledby={`${tierGroupName}-label`}
            >
              {game.leaderboards.map((b) => (
                <div className="tier-option" key={b.id}>
                  <input
                    type="radio"
                    id={`${tierGroupName}-${b.id}`}
                    name={tierGroupName}
                    value={b.id}
                    checked={b.id === tierId}
                    onChange={() => changeTier(b.id)}
                  />
                  <label htmlFor={`${tierGroupName}-${b.id}`}>
                    {b.name}
                    <span className="visually-hidden"> — </span>
                    <span className="tier-cost">
                      <Hst hst={b.cost} /> per play
                    </span>
                  </label>
                </div>
              ))}
              <TournamentTierOptions
                rounds={tournaments.open}
                groupName={tierGroupName}
                checkedId={tierId}
                onChange={changeTier}
                onElapsed={tournaments.reload}
              />
            </div>
          )}
          <GameTournamentList tournaments={tournaments.tournaments} />
          <div className={celebration ? 'celebration' : undefined}>
            {celebration && (
              <strong aria-hidden="true">
                {celebration.leaderRank === 1 ? 'Top of the board!' : 'You made the board!'}
              </strong>
            )}
            <p
              className={notice?.tone === 'error' ? 'notice error' : 'notice'}
              role="status"
              aria-live="polite"
              data-testid="arcade-notice"
              ref={noticeRef}
            >
              {notice?.text}
            </p>
            {celebration && (
              <div className="burst" aria-hidden="true">
                {BURST_COINS.map(([x, y, delay], i) => (
                  <i
                    key={`${celebration.score}-${i}`}
                    style={
                      {
                        '--x': `${x}rem`,
                        '--y': `${y}rem`,
                        '--delay': `${delay}ms`,
                      } as CSSProperties
                    }
                  />
                ))}
              </div>
            )}
          </div>
          {walletPlay !== null && <WalletPlayCard progress={walletPlay} />}
          {game.published && (
            <p className="panel-links">
              <a href={`#${ALLOWANCE_ANCHOR}`}>What this game may charge you a day</a>
            </p>
          )}
        </section>
        <div className="game-stage" ref={frameBox}>
          {game.url === '' ? (
            <p className="no-url panel">The developer has not set this game&apos;s URL yet.</p>
          ) : (
            <GameFrame url={game.url} title={`${game.name} (game)`} />
          )}
        </div>
        {tier && (
          <section aria-labelledby="leaders-heading" className="leaders panel">
            <h2 id="leaders-heading">Leaders: {tier.name}</h2>
            {tier.leaders.length === 0 ? (
              <p className="empty-board">No scores yet</p>
            ) : (
              <ol>
                {tier.leaders.map((leader) => (
                  <li
                    key={leader.playerId}
                    className={leader.playerId === playerId ? 'me' : undefined}
                  >
                    <Avatar src={leader.avatar} playerId={leader.playerId} size={24} />
                    <span className="leader-name">{leader.name}</span>
                    <span className="leader-score">{scoreText(leader.score, game.scoreUnit)}</span>
                  </li>
                ))}
              </ol>
            )}
            <p className="leaders-more">
              <Link
                href={`/games/${encodeURIComponent(game.id)}/boards/${encodeURIComponent(tier.id)}`}
              >
                Full leaderboard
              </Link>
            </p>
          </section>
        )}
        {chosenRound && <RoundLeaders open={chosenRound} me={playerId} reads={roundReads} />}
      </div>
      {game.description !== '' && (
        <section className="game-about" aria-labelledby="about-heading">
          <h2 id="about-heading">About {game.name}</h2>
          <p>{game.description}</p>
        </section>
      )}
      {game.published && (
        <AllowancePanel
          key={loginApproval.approvals}
          gameId={game.id}
          gameName={game.name}
          charged={boardReads}
        />
      )}
      {approval && <ApprovalDialog prompt={approval.prompt} onDecide={decide} />}
      {loginApproval.dialog}
    </div>
  );
}

/** What the player just decided, confirmed in a toast; the wallet's signature comes next. */
function approvalToast(prompt: ApprovalPrompt, decision: ApprovalDecision): string {
  if (decision === 'rejected') return 'Not approved: nothing was charged.';
  return prompt.kind === 'play' ? 'Play approved.' : 'Payment approved.';
}

function describeScore(score: ScoreOutcome, unit: string): string {
  const yours = `Your score ${scoreText(score.score, unit)} ranks #${score.leaderRank}`;
  return score.isWinner
    ? `${yours}: you made the leaderboard!`
    : `${yours}: not on the leaderboard this time.`;
}

/** How a play locked from the wallet is going: the step in words and the lock's transaction. */
function WalletPlayCard({ progress }: { progress: WalletPlayProgress }) {
  const done = progress.step === 'opened';
  const bad =
    progress.step === 'refund' ||
    progress.step === 'reverted' ||
    progress.step === 'lost' ||
    progress.step === 'not-sent';
  return (
    <div
      className={`progress-card${done ? ' done' : ''}${bad ? ' bad' : ''}`}
      data-testid="wallet-play-progress"
    >
      <p role="status" aria-live="polite" className="progress-step" data-step={progress.step}>
        {walletPlayText(progress)}
      </p>
      {'hash' in progress && (
        <p className="progress-hash">
          Transaction: <TxHash hash={progress.hash} />
        </p>
      )}
    </div>
  );
}

/** The celebration's coins: where each flies to (rem from the banner's centre) and its delay (ms). */
const BURST_COINS: readonly (readonly [x: number, y: number, delay: number])[] = [
  [-9, -3, 0],
  [-6, -4.5, 40],
  [-3, -5, 80],
  [0, -5.5, 20],
  [3, -5, 60],
  [6, -4.5, 100],
  [9, -3, 30],
  [-7, 1, 70],
  [7, 1, 50],
];

/** Whether the whole of `element` is on screen, below the site's header. */
function inSight(element: HTMLElement | null): boolean {
  if (element === null) return false;
  const box = element.getBoundingClientRect();
  const header = document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0;
  return box.height > 0 && box.top >= Math.max(0, header) && box.bottom <= window.innerHeight;
}
