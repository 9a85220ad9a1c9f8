import { useEffect, useState } from 'react';
import type { DeveloperPage as DeveloperPageData } from '@coinop/protocol';
import '../components/discovery.css';
import { ApiError, getDeveloperPage } from '../api.js';
import { GameCard } from '../components/game-card.js';
import { Link } from '../router.js';

/**
 * A developer's public page (issue 31): their name, if their wallet has one as a player, and
 * their published games. A developer with none answers as not found.
 */
export function DeveloperPage({ developerId }: { developerId: string }) {
  const [page, setPage] = useState<DeveloperPageData | null>(null);
  const [error, setError] = useState<{ missing: boolean; message: string } | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    setPage(null);
    setError(null);
    getDeveloperPage(developerId, abort.signal).then(setPage, (e: unknown) => {
      if (abort.signal.aborted) return;
      const missing = e instanceof ApiError && (e.status === 404 || e.status === 400);
      setError({ missing, message: (e as Error).message });
    });
    return () => abort.abort();
  }, [developerId]);

  useEffect(() => {
    if (page) document.title = `${page.name ?? 'A developer'}'s games · coinop arcade`;
    return () => {
      document.title = 'coinop arcade';
    };
  }, [page]);

  if (error) {
    return (
      <section className="page">
        <h1>{error.missing ? 'No such developer' : 'Could not load this developer'}</h1>
        <p role="alert">
          {error.missing
            ? 'This developer has no games in the arcade.'
            : `The arcade did not answer: ${error.message}`}
        </p>
        <p>
          <Link href="/">Back to all games</Link>
        </p>
      </section>
    );
  }
  if (!page) {
    return (
      <section className="page">
        <p aria-live="polite">Loading the developer…</p>
      </section>
    );
  }
  const count = page.games.length;
  return (
    <section className="page">
      <div className="developer-head">
        <p className="eyebrow">Developer</p>
        <h1>{page.name ?? 'A coinop developer'}</h1>
        <p>
          {count} {count === 1 ? 'game' : 'games'} in this arcade.
        </p>
      </div>
      <ul className="game-grid" aria-label={`Games by ${page.name ?? 'this developer'}`}>
        {page.games.map((game) => (
          <GameCard key={game.id} game={game} />
        ))}
      </ul>
    </section>
  );
}
