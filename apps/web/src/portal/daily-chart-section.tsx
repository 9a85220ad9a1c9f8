import { useEffect, useId, useState } from 'react';
import type { DeveloperDailyStats } from '@coinop/protocol';
import { DailyChartFigure } from '../charts/lazy-daily-chart.js';
import type { DailyMeasure } from '../charts/daily-series.js';
import { ErrorAlert, errorText, usePortalApi } from './parts.js';

/** The windows a developer may pick, in UTC days (the API takes 1 to 90). */
const WINDOWS = [7, 30, 90] as const;

const MEASURES: readonly DailyMeasure[] = [
  { key: 'plays', label: 'Plays', unit: 'count', mark: 'bar', color: 'var(--accent)' },
  { key: 'hstEarned', label: 'HST earned', unit: 'hst', mark: 'line', color: 'var(--coin)' },
];

/**
 * The developer's plays and HST earned per UTC day (issue 31): one game's on its page, or, on
 * the dashboard, any of their games picked from a list.
 */
export function PortalDailyChart({ gameId }: { gameId?: string }) {
  const api = usePortalApi();
  const windowId = useId();
  const gamePickId = useId();
  const [days, setDays] = useState<number>(30);
  const [picked, setPicked] = useState<string | null>(null);
  const [stats, setStats] = useState<DeveloperDailyStats | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setError(null);
    api.dailyStats(days, gameId).then(
      (s) => live && setStats(s),
      (e: unknown) => live && setError(`Could not load the chart: ${errorText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [api, days, gameId]);

  const games = stats?.games ?? [];
  const shown = games.find((g) => g.gameId === picked) ?? games[0];
  return (
    <div className="portal-daily-chart">
      <div className="daily-chart-controls">
        <label htmlFor={windowId}>
          Days
          <select id={windowId} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {WINDOWS.map((n) => (
              <option key={n} value={n}>
                Last {n} days
              </option>
            ))}
          </select>
        </label>
        {gameId === undefined && games.length > 1 && (
          <label htmlFor={gamePickId}>
            Game
            <select
              id={gamePickId}
              value={shown?.gameId}
              onChange={(e) => setPicked(e.target.value)}
            >
              {games.map((g) => (
                <option key={g.gameId} value={g.gameId}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <ErrorAlert error={error} />
      {stats === null && error === null && <p role="status">Loading…</p>}
      {stats !== null && shown === undefined && <p>No games yet: register one to see its plays.</p>}
      {shown !== undefined && (
        <DailyChartFigure
          title={`${shown.name}: plays and HST earned per day, last ${stats?.days ?? days} days (UTC)`}
          rows={shown.days}
          measures={MEASURES}
        />
      )}
    </div>
  );
}

/** The dashboard's chart: any of the developer's games, per day. */
export function DailyActivitySection() {
  return (
    <section className="portal-section" aria-labelledby="daily-activity-heading">
      <h2 id="daily-activity-heading">Plays and earnings per day</h2>
      <PortalDailyChart />
    </section>
  );
}
