import { Avatar } from '../components/avatar.js';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { BridgeLeader, Game } from '@coinop/protocol';
import { AllowancePanel, ALLOWANCE_ANCHOR } from '../allowances/allowance-panel.js';
import { TxHash } from '../account/tx-hash.js';
import { ApiError, getGame } from '../api.js';
import { useArcadeSettings } from '../arcade-settings.js';
import {
  createArcadeHandlers,
  type ApprovalDecision,
  type ApprovalPrompt,
  type ArcadeHost,
  type ScoreOutcome,
} from '../bridge/arcade-handlers.js';
import { HostBridge } from '../bridge/host-bridge.js';
import { walletPlayText, type WalletPlayProgress } from '../bridge/wallet-play-progress.js';
import { ApprovalDialog } from '../components/approval-dialog.js';
import { GameFrame } from '../components/game-frame.js';
import { Link } from '../router.js';
import { useSession } from '../session/session.js';

interface PendingApproval {
  prompt: ApprovalPrompt;
  resolve: (decision: ApprovalDecision) => void;
}

/**
 * One game: choose a tier (spec 4.3), see its current leaders, and play it in the frame below.
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
  const settings = useArcadeSettings();
  const chain = settings.status === 'loaded' ? settings.settings.chain : null;
  const tierSelectId = useId();
  const frameBox = useRef<HTMLDivElement>(null);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      const loaded = await getGame(gameId, signal);
      setGame(loaded);
      setTierId((current) =>
        loaded.leaderboards.some((b) => b.id === current)
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

  useEffect(() => {
    if (game) document.title = `${game.name} · coinop arcade`;
    return () => {
      document.title = 'coinop arcade';
    };
  }, [game]);

  // The bridge lives as long as the game's URL; it reads everything else through refs, fresh.
  const live = useRef({ game, tierId, session, approval, chain });
  live.current = { game, tierId, session, approval, chain };
  const gameUrl = game?.url ?? '';

  useEffect(() => {
    if (gameUrl === '') return;
    const tierOf = (g: Game | null, id: string) => g?.leaderboards.find((b) => b.id === id);
    const leaving = new AbortController();
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
          ? { signer: state.wallet, balance: state.player.balance }
          : null;
      },
      chainWallet: () => {
        const { chain: settings, session: current } = live.current;
        const { state } = current;
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
          const pending = { prompt, resolve };
          live.current.approval = pending;
          setApproval(pending);
        }),
      post: (path, body) => live.current.session.call(path, body),
      get: (path) => live.current.session.call(path),
      leaders: async () => {
        const fresh = await load();
        const tier = tierOf(fresh, live.current.tierId);
        return (tier?.leaders ?? []).map((l): BridgeLeader => ({
          txid: '',
          userId: l.playerId,
          score: l.score,
          displayName: l.name,
          avatarUrl: l.avatar,
        }));
      },
      tell: (text, tone) => setNotice({ text, tone }),
      changed: (score?: ScoreOutcome) => {
        void live.current.session.refresh();
        void load().catch(() => undefined);
        if (score) setNotice({ text: describeScore(score), tone: 'info' });
      },
    };
    const bridge = new HostBridge({
      host: window,
      frame: () => frameBox.current?.querySelector('iframe')?.contentWindow ?? null,
      gameUrl,
      handlers: createArcadeHandlers(host),
    });
    return () => {
      leaving.abort();
      bridge.close();
    };
  }, [gameUrl, load]);

  const decide = (decision: ApprovalDecision) => {
    const pending = live.current.approval;
    live.current.approval = null;
    setApproval(null);
    pending?.resolve(decision);
  };

  if (error) {
    return (
      <section className="page">
        <h1>{error.missing ? 'Game not found' : 'Could not load the game'}</h1>
        <p role="alert">{error.missing ? 'This game is not in the arcade.' : error.message}</p>
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
  return (
    <>
      <section className="page game-head">
        <h1>{game.name}</h1>
        {game.tagLine !== '' && <p className="tag-line">{game.tagLine}</p>}
        {game.description !== '' && <p>{game.description}</p>}
        {game.published && (
          <p>
            <a href={`#${ALLOWANCE_ANCHOR}`}>What this game may charge you a day</a>
          </p>
        )}
        {game.leaderboards.length === 0 ? (
          <p>This game has no tiers yet.</p>
        ) : (
          <div className="field">
            <label htmlFor={tierSelectId}>Leaderboard tier</label>
            <select id={tierSelectId} value={tierId} onChange={(e) => setTierId(e.target.value)}>
              {game.leaderboards.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name} — {b.formattedCostString} per play
                </option>
              ))}
            </select>
          </div>
        )}
        <p
          className={notice?.tone === 'error' ? 'notice error' : 'notice'}
          role="status"
          aria-live="polite"
          data-testid="arcade-notice"
        >
          {notice?.text}
        </p>
        {walletPlay !== null && <WalletPlayCard progress={walletPlay} />}
        {tier && (
          <section aria-labelledby="leaders-heading" className="leaders">
            <h2 id="leaders-heading">Leaders: {tier.name}</h2>
            {tier.leaders.length === 0 ? (
              <p>No scores yet. Be the first.</p>
            ) : (
              <ol>
                {tier.leaders.map((leader) => (
                  <li key={leader.playerId}>
                    <Avatar src={leader.avatar} size={24} />
                    <span className="leader-name">{leader.name}</span>
                    <span className="leader-score">{leader.score}</span>
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
      </section>
      {game.url === '' ? (
        <p className="page">The developer has not set this game&apos;s URL yet.</p>
      ) : (
        <div ref={frameBox}>
          <GameFrame url={game.url} title={`${game.name} (game)`} />
        </div>
      )}
      {game.published && <AllowancePanel gameId={game.id} gameName={game.name} />}
      {approval && <ApprovalDialog prompt={approval.prompt} onDecide={decide} />}
    </>
  );
}

function describeScore(score: ScoreOutcome): string {
  return score.isWinner
    ? `Your score ${score.score} ranks #${score.leaderRank}: you made the leaderboard!`
    : `Your score ${score.score} ranks #${score.leaderRank}: not on the leaderboard this time.`;
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
