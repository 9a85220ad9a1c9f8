import { useEffect, useState } from 'react';
import { scoreText } from '../components/score.js';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import type { GameStats, PlayStatus } from '@coinop/protocol';
import { ErrorAlert, When, errorText, usePortalApi } from './parts.js';
import { PortalDailyChart } from './daily-chart-section.js';

/** A play's status in the words of the counts above the table. */
const STATUS_LABELS: Record<PlayStatus, string> = {
  open: 'Open',
  scored: 'Scored',
  expired: 'Expired',
  voided: 'Voided',
};

/** Plays, scores and HST earned of the game, and its recent plays. */
export function StatsSection({ gameId, scoreUnit }: { gameId: string; scoreUnit: string }) {
  const api = usePortalApi();
  const [stats, setStats] = useState<GameStats | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.stats(gameId).then(
      (s) => live && setStats(s),
      (e: unknown) => live && setError(`Could not load the stats: ${errorText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [api, gameId]);

  return (
    <section className="portal-section" aria-labelledby="stats-heading">
      <h2 id="stats-heading">Plays and earnings</h2>
      <ErrorAlert error={error} />
      {stats === null && error === null && <p role="status">Loading…</p>}
      {stats !== null && (
        <>
          <dl className="stats">
            <div>
              <dt>Plays</dt>
              <dd>{stats.plays.total}</dd>
            </div>
            <div>
              <dt>Open</dt>
              <dd>{stats.plays.open}</dd>
            </div>
            <div>
              <dt>Scored</dt>
              <dd>{stats.plays.scored}</dd>
            </div>
            <div>
              <dt>Expired</dt>
              <dd>{stats.plays.expired}</dd>
            </div>
            {stats.plays.voided > 0 && (
              <div>
                <dt>Voided</dt>
                <dd>{stats.plays.voided}</dd>
              </div>
            )}
            <div>
              <dt>Scores</dt>
              <dd>{stats.scores}</dd>
            </div>
            <div>
              <dt>HST earned</dt>
              <dd>{formatHstUnits(hstUnits(stats.hstEarned))}</dd>
            </div>
          </dl>
          <PortalDailyChart gameId={gameId} />
          <h3 id="recent-heading">Recent plays</h3>
          {stats.recentPlays.length === 0 ? (
            <p>No plays yet.</p>
          ) : (
            <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="recent-heading">
              <table className="stacked-rows">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Player</th>
                    <th scope="col">Tier</th>
                    <th scope="col" className="num">
                      Cost
                    </th>
                    <th scope="col">Status</th>
                    <th scope="col" className="num">
                      Score
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {stats.recentPlays.map((play) => (
                    <tr key={play.playId}>
                      <td data-label="When">
                        <When iso={play.createdAt} />
                      </td>
                      <td data-label="Player">{play.playerName}</td>
                      <td data-label="Tier">{play.leaderboardName}</td>
                      <td data-label="Cost" className="num">
                        {formatHstUnits(hstUnits(play.cost))}
                      </td>
                      <td data-label="Status">{STATUS_LABELS[play.status]}</td>
                      <td data-label="Score" className="num">
                        {play.score === null ? '—' : scoreText(play.score, scoreUnit)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
