import { useEffect, useId, useState } from 'react';
import type { CatalogGame } from '@coinop/protocol';
import { listGames } from '../api.js';
import { Cover } from '../components/cover.js';
import { Link } from '../router.js';

/** Published games: search by words, filter by category. */
export function CatalogPage() {
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [games, setGames] = useState<readonly CatalogGame[] | null>(null);
  const [categories, setCategories] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const searchId = useId();
  const categoryId = useId();

  // The category choices come from the whole catalog, not from the filtered list.
  useEffect(() => {
    const abort = new AbortController();
    listGames({}, abort.signal).then(
      (all) => {
        const names = new Set(all.map((g) => g.category).filter((c) => c !== ''));
        setCategories([...names].sort((a, b) => a.localeCompare(b)));
      },
      () => undefined,
    );
    return () => abort.abort();
  }, []);

  useEffect(() => {
    const abort = new AbortController();
    // Typing waits a moment so each keystroke does not cost a request.
    const timer = setTimeout(() => {
      listGames({ search: search.trim(), category }, abort.signal).then(
        (list) => {
          setGames(list);
          setError(null);
        },
        (e: unknown) => {
          if (!abort.signal.aborted) setError((e as Error).message);
        },
      );
    }, 200);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [search, category]);

  return (
    <section className="page">
      <h1>Games</h1>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={searchId}>Search</label>
          <input
            id={searchId}
            type="search"
            value={search}
            placeholder="Name or tag line"
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={categoryId}>Category</label>
          <select id={categoryId} value={category} onChange={(e) => setCategory(e.target.value)}>
            <option value="">All categories</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
      </form>
      {error !== null && (
        <p role="alert" className="error">
          Could not load the games: {error}
        </p>
      )}
      {games === null && error === null && <p aria-live="polite">Loading games…</p>}
      {games !== null && games.length === 0 && (
        <p aria-live="polite">No games match. Try other words or another category.</p>
      )}
      {games !== null && games.length > 0 && (
        <ul className="game-grid" aria-label="Games">
          {games.map((game) => (
            <li key={game.id} className="game-card">
              <Cover url={game.coverUrl} name={game.name} />
              <div className="game-card-body">
                <h2>
                  <Link href={`/games/${game.id}`}>{game.name}</Link>
                </h2>
                {game.tagLine !== '' && <p className="tag-line">{game.tagLine}</p>}
                {game.category !== '' && <p className="category">{game.category}</p>}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
