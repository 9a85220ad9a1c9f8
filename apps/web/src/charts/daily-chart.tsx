import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from 'recharts';
import {
  longDay,
  measureText,
  shortDay,
  valueOf,
  type DailyMeasure,
  type DailyRow,
} from './daily-series.js';

/** The plot's height in CSS pixels: tall enough for five ticks, short enough for a phone. */
const PLOT_HEIGHT = 240;

export interface DailyChartProps {
  readonly rows: readonly DailyRow[];
  readonly measures: readonly DailyMeasure[];
  /** What the chart shows, for the SVG's title. */
  readonly title: string;
}

/**
 * A daily chart drawn with Recharts (SVG): bars and lines over the days, one value axis per
 * unit. Loaded on its own (`React.lazy` in `lazy-daily-chart.tsx`), so the
 * pages that show no chart do not carry the library. Amounts are drawn from `Number(...)` of the
 * API's exact strings: to place a bar only. What a person reads (the tooltip, the table beside
 * the chart) is the exact string.
 */
export default function DailyChart({ rows, measures, title }: DailyChartProps) {
  // One axis per unit: plays and players share a scale, as do two amounts of HST; a count and
  // an amount get an axis each, the first measure's on the left.
  const units = [...new Set(measures.map((m) => m.unit))];
  const tick = { fill: 'var(--muted)', fontSize: 12 };
  return (
    <ResponsiveContainer width="100%" height={PLOT_HEIGHT}>
      <ComposedChart
        data={rows as DailyRow[]}
        margin={{ top: 8, right: 4, bottom: 0, left: 0 }}
        title={title}
        desc="The same figures are in the table below the chart."
      >
        <CartesianGrid stroke="var(--line)" vertical={false} />
        <XAxis
          dataKey="day"
          tickFormatter={shortDay}
          stroke="var(--muted)"
          tick={tick}
          minTickGap={16}
        />
        {units.map((unit, i) => (
          <YAxis
            key={unit}
            yAxisId={unit}
            orientation={i === 0 ? 'left' : 'right'}
            allowDecimals={unit === 'hst'}
            stroke="var(--muted)"
            tick={tick}
            width={44}
          />
        ))}
        <Tooltip
          content={(props: TooltipContentProps) => <DayTip {...props} measures={measures} />}
          cursor={{ fill: 'var(--accent-soft)' }}
        />
        {measures.map((m) =>
          m.mark === 'bar' ? (
            <Bar
              key={m.key}
              yAxisId={m.unit}
              name={m.label}
              dataKey={(row: DailyRow) => Number(valueOf(row, m))}
              fill={m.color}
              radius={[3, 3, 0, 0]}
              isAnimationActive={false}
            />
          ) : (
            <Line
              key={m.key}
              yAxisId={m.unit}
              name={m.label}
              // Straight segments: a curve would show values between days that never happened.
              type="linear"
              dataKey={(row: DailyRow) => Number(valueOf(row, m))}
              stroke={m.color}
              strokeWidth={2}
              dot={rows.length <= 31 ? { r: 2, fill: m.color } : false}
              isAnimationActive={false}
            />
          ),
        )}
      </ComposedChart>
    </ResponsiveContainer>
  );
}

/** The hovered (or keyboard-focused) day, with every measure's exact value. */
function DayTip({
  active,
  payload,
  measures,
}: TooltipContentProps & { measures: readonly DailyMeasure[] }) {
  const row = payload?.[0]?.payload as DailyRow | undefined;
  if (!active || row === undefined) return null;
  return (
    <div className="chart-tip">
      <p className="chart-tip-day">{longDay(row.day)}</p>
      <ul>
        {measures.map((m) => (
          <li key={m.key}>
            <span className="chart-swatch" style={{ background: m.color }} aria-hidden="true" />
            {m.label}: <strong>{measureText(row, m)}</strong>
          </li>
        ))}
      </ul>
    </div>
  );
}
