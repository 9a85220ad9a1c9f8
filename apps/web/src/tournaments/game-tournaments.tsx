import { useCallback, useEffect, useMemo, useState } from 'react';
import type { BoardEntry } from '@coinop/protocol';
import { Avatar } from '../components/avatar.js';
import { scoreText } from '../components/score.js';
import { Link } from '../router.js';
import { exactDate } from './countdown.js';
import { hstUnits } from '../account/hst-amounts.js';
import type { PlayableTier } from '../bridge/playable-tier.js';
import {
  listGameTournaments,
  readRoundTop,
  roundAsTier,
  type Tournament,
  type TournamentRound,
} from './tournament-api.js';
import { EntryFee, PhaseChip, RoundCountdown, tournamentPhase } from './tournament-card.js';
import './tournaments.css';
import { PlayerLink } from '../profiles/player-link.js';

/** A round open for plays now, offered in the game page's tier picker. */
export interface OpenRound {
  readonly tournament: Tournament;
  readonly round: TournamentRound;
  /** The round as the bridge and the approval dialog see a tier. */
  readonly tier: PlayableTier;
}

/**
 * A game's tournaments for its page (published games only: the catalog route answers no other),
 * with the rounds open now. `reload` reads them again (a countdown ended, a play changed the pool).
 */
export function useGameTournaments(gameId: string, published: boolean) {
  const [tournaments, setTournaments] = useState<readonly Tournament[]>([]);
  const [reads, setReads] = useState(0);
  const reload = useCallback(() => setReads((n) => n + 1), []);
  useEffect(() => {
    if (!published) {
      setTournaments([]);
      return;
    }
    const abort = new AbortController();
    // The game plays without its tournaments: a failed read leaves them out.
    listGameTournaments(gameId, abort.signal).then(setTournaments, () => undefined);
    return () => abort.abort();
  }, [gameId, published, reads]);
  const open = useMemo(
    () =>
      tournaments.flatMap((t): OpenRound[] =>
        t.currentRound !== null && tournamentPhase(t) === 'open'
          ? [{ tournament: t, round: t.currentRound, tier: roundAsTier(t, t.currentRound) }]
          : [],
      ),
    [tournaments],
  );
  return { tournaments, open, reload };
}

/**
 * The open rounds as extra cards of the game page's tier picker (same radio group, so arrow keys
 * move through tiers and rounds alike), each labelled as a tournament with its fee and countdown.
 */
export function TournamentTierOptions({
  rounds,
  groupName,
  checkedId,
  onChange,
  onElapsed,
}: {
  rounds: readonly OpenRound[];
  groupName: string;
  checkedId: string;
  onChange: (roundId: string) => void;
  onElapsed: () => void;
}) {
  return (
    <>
      {rounds.map(({ tournament, round }) => (
        <div className="tier-option tournament-option" key={round.id}>
          <input
            type="radio"
            id={`${groupName}-${round.id}`}
            name={groupName}
            value={round.id}
            checked={round.id === checkedId}
            onChange={() => onChange(round.id)}
            // A name that holds still (the label's countdown changes every second).
            aria-label={`Tournament: ${tournament.name} — ${
              hstUnits(tournament.entryFee) === 0n
                ? 'free entry'
                : `${tournament.entryFee} HST a play`
            }, ends ${exactDate(round.endsAt)}`}
          />
          <label htmlFor={`${groupName}-${round.id}`}>
            <span className="tournament-option-name">
              <span className="tournament-tag">Tournament</span>
              {tournament.name}
            </span>
            <span className="tier-cost">
              <EntryFee tournament={tournament} />
              <RoundCountdown tournament={tournament} onElapsed={onElapsed} />
            </span>
          </label>
        </div>
      ))}
    </>
  );
}

/** The game's tournaments, small, beside its tiers: each links to its page. */
export function GameTournamentList({ tournaments }: { tournaments: readonly Tournament[] }) {
  const shown = tournaments.filter((t) => tournamentPhase(t) !== 'ended');
  if (shown.length === 0) return null;
  return (
    <nav className="game-tournaments" aria-labelledby="game-tournaments-heading">
      <h3 id="game-tournaments-heading">Tournaments</h3>
      <ul>
        {shown.map((t) => (
          <li key={t.id}>
            <Link href={`/tournaments/${encodeURIComponent(t.id)}`}>{t.name}</Link>
            <PhaseChip tournament={t} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Leaders shown for a round beside the game. */
const ROUND_LEADERS = 5;

/**
 * The chosen round's standings beside the game (its top five), in place of a tier's leaders,
 * with a link to the tournament's page. Read again when `reads` changes (after a score).
 */
export function RoundLeaders({
  open,
  me,
  reads,
}: {
  open: OpenRound;
  me: string | null;
  reads: number;
}) {
  const { tournament, round } = open;
  const [entries, setEntries] = useState<readonly BoardEntry[] | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    readRoundTop(tournament, round.id, ROUND_LEADERS, abort.signal).then(
      (page) => setEntries(page.entries),
      () => setEntries([]),
    );
    return () => abort.abort();
  }, [tournament, round.id, reads]);
  return (
    <section aria-labelledby="leaders-heading" className="leaders panel">
      <h2 id="leaders-heading">Standings: {tournament.name}</h2>
      {entries !== null && entries.length === 0 ? (
        <p className="empty-board">No scores yet</p>
      ) : (
        <ol>
          {(entries ?? []).map((e) => (
            <li key={e.playerId} className={e.playerId === me ? 'me' : undefined}>
              <Avatar src={e.avatar} playerId={e.playerId} size={24} />
              <span className="leader-name">
                <PlayerLink playerId={e.playerId} name={e.name} />
              </span>
              <span className="leader-score">{scoreText(e.score, tournament.scoreUnit)}</span>
            </li>
          ))}
        </ol>
      )}
      <p className="leaders-more">
        <Link href={`/tournaments/${encodeURIComponent(tournament.id)}`}>
          Prizes and full standings
        </Link>
      </p>
    </section>
  );
}
