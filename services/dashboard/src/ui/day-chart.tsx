import type { Schema } from '../api/client';

type Day = Schema<'SourceStats'>['by_day'][number];

const HEIGHT = 160;
const BAR = 14;
const GAP = 4;

/**
 * Submissions per day as stacked bars (accepted, duplicate, rejected), drawn inline
 * in SVG. A picture only: the same figures are in the table beside it, which is what
 * a screen reader reads.
 */
export function DayChart({ days }: { days: readonly Day[] }) {
  const totals = days.map((day) => day.accepted + day.duplicate + day.rejected.total);
  const top = Math.max(1, ...totals);
  const width = days.length * (BAR + GAP);
  const scale = (count: number) => (count / top) * (HEIGHT - 4);
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${width} ${HEIGHT}`}
        width="100%"
        height={HEIGHT}
        preserveAspectRatio="none"
        aria-hidden="true"
        focusable="false"
      >
        <line x1="0" x2={width} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} class="axis" />
        {days.map((day, index) => {
          const x = index * (BAR + GAP);
          let y = HEIGHT;
          const parts: [string, number][] = [
            ['accepted', day.accepted],
            ['duplicate', day.duplicate],
            ['rejected', day.rejected.total],
          ];
          return (
            <g key={day.date}>
              {parts.map(([kind, count]) => {
                const height = scale(count);
                y -= height;
                return count > 0 ? (
                  <rect key={kind} class={`bar-${kind}`} x={x} y={y} width={BAR} height={height} />
                ) : null;
              })}
            </g>
          );
        })}
      </svg>
      <figcaption>
        Submissions per day, oldest on the left (highest: {top}).{' '}
        <span class="legend legend-accepted">Accepted</span>{' '}
        <span class="legend legend-duplicate">Duplicate</span>{' '}
        <span class="legend legend-rejected">Rejected</span>. The figures are in the table below.
      </figcaption>
    </figure>
  );
}
