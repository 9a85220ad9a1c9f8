import { Cover } from '../components/cover.js';
import { Hst } from '../components/hst.js';
import { Link } from '../router.js';
import { Countdown } from './countdown.js';
import { hstUnits } from '../account/hst-amounts.js';
import type { Tournament } from './tournament-api.js';
import './tournaments.css';

export type TournamentPhase = 'open' | 'upcoming' | 'closing' | 'ended';

/**
 * Where a tournament stands, for its chip and its countdown: its round is open, to come, past
 * its end but not yet closed (the arcade is paying it out), or no round is to come.
 */
export function tournamentPhase(t: Tournament, now = Date.now()): TournamentPhase {
  const round = t.currentRound;
  if (round === null || round.closedAt !== null) return 'ended';
  // Past its end (`status: closed`, or not yet said so) until the close has run.
  if (round.status === 'closed' || Date.parse(round.endsAt) <= now) return 'closing';
  return round.status === 'open' && Date.parse(round.startsAt) <= now ? 'open' : 'upcoming';
}

/** The chip that says where a tournament stands: Live, Upcoming, Closing, Ended. */
export function PhaseChip({ tournament }: { tournament: Tournament }) {
  const phase = tournamentPhase(tournament);
  const text = { open: 'Live', upcoming: 'Upcoming', closing: 'Closing', ended: 'Ended' }[phase];
  return <span className={`phase-chip phase-${phase}`}>{text}</span>;
}

/** "Ends in …" while open, "Starts in …" before; nothing once no round is to come. */
export function RoundCountdown({
  tournament,
  onElapsed,
  className,
}: {
  tournament: Tournament;
  onElapsed?: () => void;
  className?: string;
}) {
  const round = tournament.currentRound;
  if (round === null) return null;
  const phase = tournamentPhase(tournament);
  if (phase === 'ended' || phase === 'closing') return null;
  const props = { ...(onElapsed && { onElapsed }), ...(className && { className }) };
  return phase === 'open' ? (
    <Countdown to={round.endsAt} label="Ends in" {...props} />
  ) : (
    <Countdown to={round.startsAt} label="Starts in" {...props} />
  );
}

/** Players who entered the round: "41", or "41 of 1,000" when it has a limit. */
export function entrantsText(t: Tournament): string {
  const n = (t.currentRound?.entrants ?? 0).toLocaleString('en');
  return t.maxEntrants === null ? n : `${n} of ${t.maxEntrants.toLocaleString('en')}`;
}

/** The entry fee as a player reads it: "Free entry" or the coin and amount. */
export function EntryFee({ tournament }: { tournament: Tournament }) {
  const fee = hstUnits(tournament.entryFee);
  return fee === 0n ? <>Free entry</> : <Hst units={fee} />;
}

/**
 * A tournament in the catalog: the game's cover, name, the pool, the entry fee, entrants and a
 * live countdown. The whole card is the link to the tournament's page (as the game cards are).
 */
export function TournamentCard({
  tournament,
  coverUrl,
  onElapsed,
}: {
  tournament: Tournament;
  coverUrl: string;
  onElapsed?: () => void;
}) {
  const round = tournament.currentRound;
  return (
    <li className="game-card tournament-card">
      <div className="cover-frame">
        <Cover url={coverUrl} name={tournament.gameName} />
        <PhaseChip tournament={tournament} />
      </div>
      <div className="game-card-body">
        <h3>
          <Link href={`/tournaments/${encodeURIComponent(tournament.id)}`}>{tournament.name}</Link>
        </h3>
        <p className="tournament-game">{tournament.gameName}</p>
        <dl className="tournament-facts">
          <div className="pool-fact">
            <dt>Prize pool</dt>
            <dd>
              <Hst units={hstUnits(round?.pool ?? '0')} />
            </dd>
          </div>
          <div>
            <dt>Entry</dt>
            <dd>
              <EntryFee tournament={tournament} />
            </dd>
          </div>
          <div>
            <dt>Players</dt>
            <dd>{entrantsText(tournament)}</dd>
          </div>
        </dl>
        <div className="card-foot">
          <RoundCountdown tournament={tournament} {...(onElapsed && { onElapsed })} />
        </div>
      </div>
    </li>
  );
}
