import { useEffect, useId, useState } from 'react';
import type { ArcadeDailyStats } from '@coinop/protocol';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import { DailyChartFigure } from '../charts/lazy-daily-chart.js';
import type { DailyMeasure } from '../charts/daily-series.js';
import type { AdminApi } from './admin-api.js';
import { Outcome, errorText } from './parts.js';

/** The windows the operator may pick, in UTC days (the API takes 1 to 90). */
const WINDOWS = [7, 30, 90] as const;

const PLAYERS: readonly DailyMeasure[] = [
  { key: 'plays', label: 'Plays', unit: 'count', mark: 'bar', color: 'var(--accent)' },
  {
    key: 'activePlayers',
    label: 'Active players',
    unit: 'count',
    mark: 'line',
    color: 'var(--ok)',
  },
];

const MONEY: readonly DailyMeasure[] = [
  { key: 'volume', label: 'Volume (HST locked)', unit: 'hst', mark: 'bar', color: 'var(--coin)' },
  { key: 'paidOut', label: 'Paid to leaders', unit: 'hst', mark: 'line', color: 'var(--glow)' },
];

/**
 * Activity (issue 31): the arcade's plays, active players, volume and payouts per UTC day, as
 * charts with their figures as tables, and the window's totals (summed exactly, in base units).
 */
export function ActivityScreen({ api }: { api: AdminApi }) {
  const windowId = useId();
  const [days, setDays] = useState<number>(30);
  const [stats, setStats] = useState<ArcadeDailyStats | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setError(null);
    api.dailyStats(days).then(
      (s) => live && setStats(s),
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [api, days]);

  return (
    <>
      <h1>Activity</h1>
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
      </div>
      {error !== null && <Outcome text={`Could not load the activity: ${error}`} tone="error" />}
      {stats === null && error === null && <p role="status">Loading…</p>}
      {stats !== null && (
        <>
          <Totals stats={stats} />
          <section aria-labelledby="activity-players-heading" className="admin-panel">
            <h2 id="activity-players-heading">Plays and players</h2>
            <DailyChartFigure
              title={`Plays and active players per day, ${stats.from} to ${stats.to} (UTC)`}
              rows={stats.series}
              measures={PLAYERS}
            />
          </section>
          <section aria-labelledby="activity-money-heading" className="admin-panel">
            <h2 id="activity-money-heading">Volume and payouts</h2>
            <DailyChartFigure
              title={`HST locked by plays and paid to leaders per day, ${stats.from} to ${stats.to} (UTC)`}
              rows={stats.series}
              measures={MONEY}
            />
          </section>
        </>
      )}
    </>
  );
}

/** The window's sums: amounts added as base units, so the total is exact. */
function Totals({ stats }: { stats: ArcadeDailyStats }) {
  const sum = (pick: (d: ArcadeDailyStats['series'][number]) => string) =>
    formatHstUnits(stats.series.reduce((total, d) => total + hstUnits(pick(d)), 0n));
  const busiest = Math.max(0, ...stats.series.map((d) => d.activePlayers));
  return (
    <dl className="admin-facts" data-testid="activity-totals">
      <dt>Plays</dt>
      <dd>{stats.series.reduce((total, d) => total + d.plays, 0)}</dd>
      <dt>Volume</dt>
      <dd>{sum((d) => d.volume)}</dd>
      <dt>Paid to leaders</dt>
      <dd>{sum((d) => d.paidOut)}</dd>
      <dt>Most active players in a day</dt>
      <dd>{busiest}</dd>
    </dl>
  );
}
