import { useEffect, useId, useState } from 'react';
import type { CatalogGame } from '@coinop/protocol';
import { listGames } from '../api.js';
import { Cover } from '../components/cover.js';
import { Hst } from '../components/hst.js';
import { Link } from '../router.js';
import { TournamentStrip } from '../tournaments/tournament-strip.js';

/** Published games as cards: search by words, filter by category chips. */
export function CatalogPage() {
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [games, setGames] = useState<readonly CatalogGame[] | null>(null);
  const [categories, setCategories] = useState<string[]>([]);
  const [allGames, setAllGames] = useState<readonly CatalogGame[]>([]);
  const [error, setError] = useState<string | null>(null);

  // The category choices come from the whole catalog, not from the filtered list.
  useEffect(() => {
    const abort = new AbortController();
    listGames({}, abort.signal).then(
      (all) => {
        setAllGames(all);
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
      <div className="catalog-head">
        <div>
          <h1>Games</h1>
          <p>Pick a game, pick a tier, and play for a place on its leaderboard.</p>
        </div>
      </div>
      <TournamentStrip games={allGames} />
      <CatalogFilters
        search={search}
        setSearch={setSearch}
        category={category}
        setCategory={setCategory}
        categories={categories}
      />
      {error !== null && (
        <p role="alert" className="error">
          Could not load the games: {error}
        </p>
      )}
      {games === null && error === null && <p aria-live="polite">Loading games…</p>}
      {games !== null && games.length === 0 && (
        <div className="empty-state" aria-live="polite">
          <strong>No games match.</strong>
          <p>Try other words or another category.</p>
        </div>
      )}
      {games !== null && games.length > 0 && (
        <ul className="game-grid" aria-label="Games">
          {games.map((game) => (
            <GameCard key={game.id} game={game} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Search by words and the category chips (from the whole catalog). */
function CatalogFilters({
  search,
  setSearch,
  category,
  setCategory,
  categories,
}: {
  search: string;
  setSearch: (search: string) => void;
  category: string;
  setCategory: (category: string) => void;
  categories: readonly string[];
}) {
  const searchId = useId();
  const categoryName = useId();
  return (
    <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
      <div className="search-field">
        <label htmlFor={searchId} className="visually-hidden">
          Search
        </label>
        <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <circle cx="7" cy="7" r="5" stroke="currentColor" strokeWidth="1.8" fill="none" />
          <path d="m11 11 3.5 3.5" stroke="currentColor" strokeWidth="1.8" />
        </svg>
        <input
          id={searchId}
          type="search"
          value={search}
          placeholder="Search by name or tag line"
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {categories.length > 0 && (
        <fieldset className="chips">
          <legend className="visually-hidden">Category</legend>
          {['', ...categories].map((c) => (
            <span key={c}>
              <input
                type="radio"
                name={categoryName}
                id={`${categoryName}-${c}`}
                value={c}
                checked={category === c}
                onChange={() => setCategory(c)}
              />
              <label htmlFor={`${categoryName}-${c}`}>{c === '' ? 'All games' : c}</label>
            </span>
          ))}
        </fieldset>
      )}
    </form>
  );
}

/** A game's card: cover, name (its page's link), tag line, category and cheapest play. */
function GameCard({ game }: { game: CatalogGame }) {
  return (
    <li className="game-card">
      <div className="cover-frame">
        <Cover url={game.coverUrl} name={game.name} />
      </div>
      <div className="game-card-body">
        <h2>
          <Link href={`/games/${game.id}`}>{game.name}</Link>
        </h2>
        {game.tagLine !== '' && <p className="tag-line">{game.tagLine}</p>}
        <div className="card-foot">
          {game.category !== '' && <span className="category">{game.category}</span>}
          <CheapestPlay game={game} />
        </div>
      </div>
    </li>
  );
}

/** What the cheapest tier costs a play, so a player knows the stakes before opening the game. */
function CheapestPlay({ game }: { game: CatalogGame }) {
  const cheapest = game.leaderboards.reduce<CatalogGame['leaderboards'][number] | null>(
    (best, tier) => (best === null || tier.cost < best.cost ? tier : best),
    null,
  );
  if (cheapest === null) return null;
  return (
    <span className="from">
      {game.leaderboards.length > 1 ? 'From ' : ''}
      <Hst hst={cheapest.cost} /> a play
    </span>
  );
}
