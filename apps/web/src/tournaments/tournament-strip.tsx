import { useCallback, useEffect, useRef, useState } from 'react';
import type { CatalogGame } from '@coinop/protocol';
import { listTournaments, type Tournament } from './tournament-api.js';
import { TournamentCard, tournamentPhase } from './tournament-card.js';

/** Cards shown on the catalog; the rest are on their games' pages. */
const CARDS_SHOWN = 6;

/**
 * The catalog's "Tournaments" section: live and upcoming tournaments as cards, live first. Absent when there is none, so the catalog stays as it was.
 */
export function TournamentStrip({
  games,
  inView = false,
}: {
  games: readonly CatalogGame[];
  /** Opened as `/tournaments`: the section is scrolled into view once it has cards. */
  inView?: boolean;
}) {
  const [tournaments, setTournaments] = useState<readonly Tournament[]>([]);
  const section = useRef<HTMLElement>(null);
  const [reads, setReads] = useState(0);
  // A countdown reaching zero reads the list again: the round opened, or closed.
  const reload = useCallback(() => setReads((n) => n + 1), []);
  useEffect(() => {
    const abort = new AbortController();
    // The catalog works without its tournaments: a failed read leaves the section out.
    listTournaments(abort.signal).then(setTournaments, () => undefined);
    return () => abort.abort();
  }, [reads]);

  const shown = tournaments
    .filter((t) => tournamentPhase(t) !== 'ended')
    .sort(byUrgency)
    .slice(0, CARDS_SHOWN);
  const hasCards = shown.length > 0;
  useEffect(() => {
    if (inView && hasCards) section.current?.scrollIntoView();
  }, [inView, hasCards]);
  if (!hasCards) return null;
  const coverOf = (gameId: string) => games.find((g) => g.id === gameId)?.coverUrl ?? '';
  return (
    <section className="tournament-strip" aria-labelledby="tournaments-heading" ref={section}>
      <div className="strip-head">
        <h2 id="tournaments-heading">Tournaments</h2>
        <p>Play for a prize pool: the best scores when the clock runs out share it.</p>
      </div>
      <ul className="tournament-grid" aria-label="Tournaments">
        {shown.map((t) => (
          <TournamentCard
            key={t.id}
            tournament={t}
            coverUrl={coverOf(t.gameId)}
            onElapsed={reload}
          />
        ))}
      </ul>
    </section>
  );
}

/**
 * Live first, the one ending soonest leading; then upcoming, the one starting soonest leading. A
 * player sees first what they can still enter.
 */
function byUrgency(a: Tournament, b: Tournament): number {
  const rank = (t: Tournament) => (tournamentPhase(t) === 'upcoming' ? 1 : 0);
  const when = (t: Tournament) => {
    const round = t.currentRound;
    if (round === null) return Infinity;
    return Date.parse(rank(t) === 1 ? round.startsAt : round.endsAt);
  };
  return rank(a) - rank(b) || when(a) - when(b);
}
