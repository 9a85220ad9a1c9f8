import '../components/discovery.css';
import { useEffect, useId, useState } from 'react';
import type { CatalogGame, CatalogSort } from '@coinop/protocol';
import { listGames, listSortedGames } from '../api.js';
import { GameCard } from '../components/game-card.js';
import { TournamentStrip } from '../tournaments/tournament-strip.js';
import { useTitle } from '../components/page-title.js';

const SORTS: readonly { value: CatalogSort; label: string }[] = [
  { value: 'popular', label: 'Popular' },
  { value: 'new', label: 'New' },
  { value: 'pool', label: 'Biggest pools' },
];

/** The sort a link asked for (`/?sort=pool`), else the catalog's own order, newest first. */
function sortInUrl(): CatalogSort {
  const asked = new URLSearchParams(window.location.search).get('sort');
  return SORTS.find((s) => s.value === asked)?.value ?? 'new';
}

/** Published games as cards: sorted, searched by words, filtered by category chips. */
export function CatalogPage({ tournaments = false }: { tournaments?: boolean }) {
  const [sort, setSortState] = useState<CatalogSort>(sortInUrl);
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [games, setGames] = useState<readonly CatalogGame[] | null>(null);
  const [categories, setCategories] = useState<string[]>([]);
  const [allGames, setAllGames] = useState<readonly CatalogGame[]>([]);
  const [error, setError] = useState<string | null>(null);
  useTitle('Games');

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
      listSortedGames({ search: search.trim(), category, sort }, abort.signal).then(
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
  }, [search, category, sort]);

  // The sort is kept in the address, so a sorted catalog can be linked to and comes back on Back.
  const setSort = (next: CatalogSort) => {
    setSortState(next);
    const url = new URL(window.location.href);
    if (next === 'new') url.searchParams.delete('sort');
    else url.searchParams.set('sort', next);
    window.history.replaceState(null, '', url);
  };

  return (
    <section className="page">
      <div className="catalog-head">
        <div>
          <h1>Games</h1>
          <p>Pick a game, pick a tier, and play for a place on its leaderboard.</p>
        </div>
      </div>
      <TournamentStrip games={allGames} inView={tournaments} />
      <SortChoice sort={sort} setSort={setSort} />
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

/** How the games are ordered: a radio group, so arrow keys move between the choices. */
function SortChoice({ sort, setSort }: { sort: CatalogSort; setSort: (s: CatalogSort) => void }) {
  const name = useId();
  return (
    <fieldset className="sort-choice">
      <legend>Sort</legend>
      {SORTS.map((s) => (
        <span key={s.value}>
          <input
            type="radio"
            name={name}
            id={`${name}-${s.value}`}
            value={s.value}
            checked={sort === s.value}
            onChange={() => setSort(s.value)}
          />
          <label htmlFor={`${name}-${s.value}`}>{s.label}</label>
        </span>
      ))}
    </fieldset>
  );
}
