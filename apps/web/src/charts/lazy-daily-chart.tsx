import { lazy, Suspense, useId } from 'react';
import { longDay, measureText, type DailyMeasure, type DailyRow } from './daily-series.js';
import './charts.css';

/** Recharts and the chart drawn with it, fetched the first time a chart is shown. */
const DailyChart = lazy(() => import('./daily-chart.js'));

export interface DailyChartFigureProps {
  /** The figure's caption, also the table's. */
  readonly title: string;
  readonly rows: readonly DailyRow[];
  readonly measures: readonly DailyMeasure[];
}

/**
 * A daily chart with its legend, and the same figures as a table for screen readers and for
 * anyone who wants the exact numbers (behind a disclosure, so the page stays short). The chart
 * itself is loaded lazily; until it arrives, the plot's space is kept so nothing jumps.
 */
export function DailyChartFigure({ title, rows, measures }: DailyChartFigureProps) {
  const captionId = useId();
  return (
    <figure className="daily-chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className="daily-chart-caption">
        {title}
      </figcaption>
      <ul className="daily-chart-legend">
        {measures.map((m) => (
          <li key={m.key}>
            <span
              className={m.mark === 'bar' ? 'chart-swatch' : 'chart-swatch chart-swatch-line'}
              style={{ background: m.color }}
              aria-hidden="true"
            />
            {m.label}
            <span className="muted">{markText(m, measures)}</span>
          </li>
        ))}
      </ul>
      <div className="daily-chart-plot">
        <Suspense fallback={<p role="status">Loading the chart…</p>}>
          <DailyChart rows={rows} measures={measures} title={title} />
        </Suspense>
      </div>
      <DailyTable title={title} rows={rows} measures={measures} />
    </figure>
  );
}

/** "(bars)", or "(line, right axis)" when a count and an amount share the chart. */
function markText(measure: DailyMeasure, measures: readonly DailyMeasure[]): string {
  const mark = measure.mark === 'bar' ? 'bars' : 'line';
  if (measures.every((m) => m.unit === measure.unit)) return ` (${mark})`;
  const side = measures[0]?.unit === measure.unit ? 'left' : 'right';
  return ` (${mark}, ${side} axis)`;
}

/** Every day with every measure's exact value, newest first. */
function DailyTable({ title, rows, measures }: DailyChartFigureProps) {
  const tableId = useId();
  return (
    <details className="daily-chart-table">
      <summary>Show the figures as a table</summary>
      <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={tableId}>
        <table className="data">
          <caption id={tableId} className="visually-hidden">
            {title}, per UTC day
          </caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              {measures.map((m) => (
                <th key={m.key} scope="col" className="num">
                  {m.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...rows].reverse().map((row) => (
              <tr key={row.day}>
                <th scope="row">{longDay(row.day)}</th>
                {measures.map((m) => (
                  <td key={m.key} className="num">
                    {measureText(row, m)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
