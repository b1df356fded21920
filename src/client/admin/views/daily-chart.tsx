import { useId } from 'react';

// The per-day chart of visitors and sign-ups, drawn as inline SVG by hand: no chart library is in
// the shared node_modules yet, and the lead asked for exactly this fallback rather than an install
// (decision 0016). Bars for visitors, a line for sign-ups on its own scale (sign-ups are a small
// fraction of visitors), and the same numbers in a table for screen readers and for reading off.

export interface DayPoint {
  day: string;
  visitors: number;
  signups: number;
}

const W = 720;
const H = 220;
const PAD = { top: 12, right: 44, bottom: 28, left: 44 };

/** A round upper bound for an axis (1, 2 or 5 times a power of ten). */
const niceMax = (n: number): number => {
  if (n <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(n));
  return ([1, 2, 5, 10].find((m) => m * p >= n) ?? 10) * p;
};

export function DailyChart({ series }: { series: DayPoint[] }) {
  const titleId = useId();
  const descId = useId();
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const vMax = niceMax(Math.max(0, ...series.map((d) => d.visitors)));
  const sMax = niceMax(Math.max(0, ...series.map((d) => d.signups)));
  const step = innerW / Math.max(1, series.length);
  const barW = Math.max(1, step * 0.7);
  const x = (i: number) => PAD.left + i * step + step / 2;
  const yV = (v: number) => PAD.top + innerH - (v / vMax) * innerH;
  const yS = (v: number) => PAD.top + innerH - (v / sMax) * innerH;
  const line = series.map((d, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${yS(d.signups).toFixed(1)}`).join(' ');
  // A label every few days so they never overlap.
  const labelEvery = Math.ceil(series.length / 8);

  return (
    <figure className="cs-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} preserveAspectRatio="none">
        <title id={titleId}>Visitors and sign-ups per day</title>
        <desc id={descId}>
          Bars: visitors per day (left scale, up to {vMax}). Line: sign-ups per day (right scale, up to {sMax}). The table below
          has the same figures.
        </desc>
        <line x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} className="cs-chart-axis" />
        <text x={PAD.left - 6} y={PAD.top + 4} textAnchor="end" className="cs-chart-label">
          {vMax}
        </text>
        <text x={PAD.left - 6} y={PAD.top + innerH} textAnchor="end" className="cs-chart-label">
          0
        </text>
        <text x={W - PAD.right + 6} y={PAD.top + 4} className="cs-chart-label cs-chart-signups-label">
          {sMax}
        </text>
        {series.map((d, i) => (
          <rect
            key={d.day}
            className="cs-chart-visitors"
            x={x(i) - barW / 2}
            y={yV(d.visitors)}
            width={barW}
            height={PAD.top + innerH - yV(d.visitors)}
          >
            <title>{`${d.day}: ${d.visitors} visitors, ${d.signups} sign-ups`}</title>
          </rect>
        ))}
        <path d={line} className="cs-chart-signups" fill="none" />
        {series.map((d, i) =>
          i % labelEvery === 0 ? (
            <text key={d.day} x={x(i)} y={H - 8} textAnchor="middle" className="cs-chart-label">
              {d.day.slice(5)}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption>
        <span className="cs-key cs-key-visitors" aria-hidden="true" /> Visitors (left scale){' '}
        <span className="cs-key cs-key-signups" aria-hidden="true" /> Sign-ups (right scale)
      </figcaption>
      <details className="cs-chart-table">
        <summary>The figures as a table</summary>
        <table className="cs-table">
          <caption className="cs-visually-hidden">Visitors and sign-ups per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Visitors</th>
              <th scope="col">Sign-ups</th>
            </tr>
          </thead>
          <tbody>
            {series.map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                <td>{d.visitors}</td>
                <td>{d.signups}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
