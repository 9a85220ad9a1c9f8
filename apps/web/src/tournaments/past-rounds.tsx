import { useCallback, useEffect, useId, useState } from 'react';
import { Avatar } from '../components/avatar.js';
import { Hst } from '../components/hst.js';
import { scoreText } from '../components/score.js';
import { ErrorAlert, errorText } from '../portal/parts.js';
import { exactDate } from './countdown.js';
import { ordinal } from './payout-table.js';
import { hstUnits } from '../account/hst-amounts.js';
import {
  getRound,
  listRounds,
  type Tournament,
  type TournamentRoundDetail,
  type TournamentRoundPage,
} from './tournament-api.js';
import { PlayerLink } from '../profiles/player-link.js';

/** Past rounds read at a time. */
const ROUNDS_PAGE = 5;

/** Where the rounds are read: the public catalog by default, the admin API in the console. */
export interface RoundReads {
  readonly list: (id: string, cursor: string | null, limit: number) => Promise<TournamentRoundPage>;
  readonly one: (id: string, roundId: string) => Promise<TournamentRoundDetail>;
}

const CATALOG_READS: RoundReads = {
  list: (id, cursor, limit) => listRounds(id, cursor, limit),
  one: (id, roundId) => getRound(id, roundId),
};

/**
 * A tournament's closed rounds (those the close has paid), newest first, each with its winners (place, player, score in the
 * game's unit, prize); "Load more" follows the API's cursor. `title` names the section where
 * "Past rounds" alone would not say whose (the operator console); `reads` (a stable object) is
 * where the rounds come from: the catalog, or the admin API for any game.
 */
export function PastRounds({
  tournament,
  me,
  title = 'Past rounds',
  reads = CATALOG_READS,
}: {
  tournament: Tournament;
  me: string | null;
  title?: string;
  reads?: RoundReads;
}) {
  const headingId = useId();
  const [rounds, setRounds] = useState<readonly TournamentRoundDetail[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (after: string | null) => {
      setLoading(true);
      setError(null);
      try {
        // The list holds every round, the current one too, without results: each closed one's
        // winners are its own read.
        const page = await reads.list(tournament.id, after, ROUNDS_PAGE);
        const closed = await Promise.all(
          page.rounds.filter((r) => r.closedAt !== null).map((r) => reads.one(tournament.id, r.id)),
        );
        setRounds((shown) => (after === null ? closed : [...shown, ...closed]));
        setCursor(page.nextCursor);
      } catch (e) {
        setError(`Could not load the past rounds: ${errorText(e)}`);
      } finally {
        setLoading(false);
      }
    },
    [tournament.id, reads],
  );
  useEffect(() => {
    void load(null);
  }, [load]);

  return (
    <section className="past-rounds" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {!loading && rounds.length === 0 && error === null && (
        <p className="muted">No round has ended yet: the first winners appear here.</p>
      )}
      <ol className="round-list">
        {rounds.map((round) => (
          <RoundCard key={round.id} round={round} me={me} unit={tournament.scoreUnit} />
        ))}
      </ol>
      <ErrorAlert error={error} />
      {loading && <p role="status">Loading the past rounds…</p>}
      {!loading && cursor !== null && (
        <button type="button" onClick={() => void load(cursor)}>
          Load more rounds
        </button>
      )}
    </section>
  );
}

/** A closed round: when it ended, its players and pool, and its winners. */
function RoundCard({
  round,
  me,
  unit,
}: {
  round: TournamentRoundDetail;
  me: string | null;
  unit: string;
}) {
  return (
    <li className="round-card">
      <div className="round-head">
        <h3>Round {round.number}</h3>
        <p className="muted">
          Ended <time dateTime={round.endsAt}>{exactDate(round.endsAt)}</time> · {round.entrants}{' '}
          {round.entrants === 1 ? 'player' : 'players'} · pool <Hst units={hstUnits(round.pool)} />
        </p>
      </div>
      {round.results.length === 0 ? (
        <p className="muted">Nobody scored in this round: no prize was paid.</p>
      ) : (
        <WinnersTable round={round} me={me} unit={unit} />
      )}
    </li>
  );
}

/** A round's winners: place, player (the signed-in one marked), score in the game's unit, prize. */
function WinnersTable({
  round,
  me,
  unit,
}: {
  round: TournamentRoundDetail;
  me: string | null;
  unit: string;
}) {
  return (
    <div className="table-scroll" tabIndex={0} aria-label={`Winners of round ${round.number}`}>
      <table className="winners-table">
        <caption className="visually-hidden">Winners of round {round.number}</caption>
        <thead>
          <tr>
            <th scope="col">Place</th>
            <th scope="col">Player</th>
            <th scope="col" className="num score-col">
              Score
            </th>
            <th scope="col" className="num">
              Prize
            </th>
          </tr>
        </thead>
        <tbody>
          {round.results.map((r) => (
            <tr
              key={r.place}
              className={r.place <= 3 ? `place-${r.place}` : undefined}
              aria-current={r.playerId === me ? 'true' : undefined}
            >
              <th scope="row">
                <span className="place-disc" aria-hidden="true">
                  {r.place}
                </span>
                <span className="visually-hidden">{ordinal(r.place)}</span>
              </th>
              <td>
                <span className="board-player">
                  <Avatar src={r.avatar} playerId={r.playerId} size={24} />
                  <span>
                    <PlayerLink playerId={r.playerId} name={r.name} />
                    {r.playerId === me && <strong className="board-you"> (you)</strong>}
                    {/* On a phone the score sits under the name, its column hidden. */}
                    <span className="winner-score">{scoreText(r.score, unit)}</span>
                  </span>
                </span>
              </td>
              <td className="num score-col">{scoreText(r.score, unit)}</td>
              <td className="num prize">
                <Hst units={hstUnits(r.prize)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
