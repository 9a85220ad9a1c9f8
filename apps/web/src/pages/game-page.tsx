import { useEffect, useId, useState } from 'react';
import { ApiError, getGame, type Game } from '../api.js';
import { GameFrame } from '../components/game-frame.js';
import { Link } from '../router.js';

/** One game: choose a tier (spec 4.3), see its current leaders, play it in the frame below. */
export function GamePage({ gameId }: { gameId: string }) {
  const [game, setGame] = useState<Game | null>(null);
  const [error, setError] = useState<{ missing: boolean; message: string } | null>(null);
  const [tierId, setTierId] = useState('');
  const tierSelectId = useId();

  useEffect(() => {
    const abort = new AbortController();
    setGame(null);
    setError(null);
    getGame(gameId, abort.signal).then(
      (loaded) => {
        setGame(loaded);
        setTierId((current) =>
          loaded.leaderboards.some((b) => b.id === current)
            ? current
            : (loaded.leaderboards[0]?.id ?? ''),
        );
      },
      (e: unknown) => {
        if (abort.signal.aborted) return;
        const missing = e instanceof ApiError && (e.status === 404 || e.status === 400);
        setError({ missing, message: (e as Error).message });
      },
    );
    return () => abort.abort();
  }, [gameId]);

  useEffect(() => {
    if (game) document.title = `${game.name} · coinop arcade`;
    return () => {
      document.title = 'coinop arcade';
    };
  }, [game]);

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
        {tier && (
          <section aria-labelledby="leaders-heading" className="leaders">
            <h2 id="leaders-heading">Leaders: {tier.name}</h2>
            {tier.leaders.length === 0 ? (
              <p>No scores yet. Be the first.</p>
            ) : (
              <ol>
                {tier.leaders.map((leader) => (
                  <li key={leader.playerId}>
                    <img src={leader.avatar} alt="" width={24} height={24} />
                    <span className="leader-name">{leader.name}</span>
                    <span className="leader-score">{leader.score}</span>
                  </li>
                ))}
              </ol>
            )}
          </section>
        )}
      </section>
      {game.url === '' ? (
        <p className="page">The developer has not set this game&apos;s URL yet.</p>
      ) : (
        <GameFrame url={game.url} title={`${game.name} (game)`} />
      )}
    </>
  );
}
