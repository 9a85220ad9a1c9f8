/**
 * The views of a game in the developer portal, each at `/developer/games/{id}/{path}` (the
 * overview at `/developer/games/{id}`). The twelve sections of the game are grouped by what a
 * developer comes to do; apps/web/README.md ("Developer portal") says why each sits where it does.
 */
export const GAME_SECTIONS = [
  { path: '', label: 'Overview', about: 'Where the game stands and what needs your attention.' },
  {
    path: 'details',
    label: 'Details',
    about: 'Name, description, category, URL and cover; the frame shape and screenshots.',
  },
  {
    path: 'boards',
    label: 'Boards',
    about: 'Leaderboard tiers and their costs, the score rules and the payout hold.',
  },
  {
    path: 'tournaments',
    label: 'Tournaments',
    about: 'Timed rounds with an entry fee and prizes.',
  },
  {
    path: 'integration',
    label: 'Integration',
    about: "Your game server's credentials and the replay verifier; code with your ids.",
  },
  {
    path: 'publishing',
    label: 'Publishing',
    about: 'Ask the operator to list the game in the catalog; invite testers before then.',
  },
  { path: 'reviews', label: 'Reviews', about: 'Scores that stand out or were reported.' },
  { path: 'stats', label: 'Stats', about: 'Plays, scores, HST earned and the recent plays.' },
] as const;

export type GameSection = (typeof GAME_SECTIONS)[number];
export type GameSectionPath = GameSection['path'];

/** The section at `path` (`''` for the overview), or undefined when there is none. */
export function gameSectionAt(path: string): GameSection | undefined {
  return GAME_SECTIONS.find((section) => section.path === path);
}

/** The address of a section of the game. */
export function gameSectionHref(gameId: string, path: GameSectionPath | 'integrate'): string {
  const base = `/developer/games/${encodeURIComponent(gameId)}`;
  return path === '' ? base : `${base}/${path}`;
}
