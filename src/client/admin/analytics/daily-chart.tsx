import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

// The per-day chart of visitors and sign-ups, drawn by uPlot (a small, well-kept canvas chart
// library; this file is its only user, and only the console's build has it: decision 0022).
// Bars for visitors on the left scale, a line for sign-ups on its own right scale (sign-ups are a
// small fraction of visitors). A canvas says nothing to assistive technology, so the figure has a
// name and a description, and the same figures are in a table under a disclosure.

export interface DayPoint {
  day: string;
  visitors: number;
  signups: number;
}

const HEIGHT = 224;
const DAY_S = 24 * 60 * 60;

/** Whole-number steps for the axes (counts of people are never 2.5). */
const wholeSteps = Array.from({ length: 10 }, (_, p) => [1, 2, 5].map((m) => m * 10 ** p)).flat();

/** The console's colours (console.css), read when the chart is made: canvas cannot use var(). */
function tokens(el: Element) {
  const css = getComputedStyle(el);
  const token = (name: string) => css.getPropertyValue(name).trim();
  return {
    visitors: token('--cs-chart-visitors'),
    signups: token('--cs-chart-signups'),
    ink: token('--cs-muted'),
    grid: token('--cs-line'),
    font: `12px ${css.fontFamily}`,
  };
}

function chartOptions(el: HTMLElement): uPlot.Options {
  const c = tokens(el);
  const axis = (scale: string, side: 1 | 3, colour: string): uPlot.Axis => ({
    scale,
    side,
    stroke: colour,
    font: c.font,
    incrs: wholeSteps,
    grid: { show: side === 3, stroke: c.grid, width: 1 },
    ticks: { stroke: c.grid, width: 1 },
  });
  return {
    width: Math.max(1, el.clientWidth),
    height: HEIGHT,
    // Days are UTC days (the report says so); uPlot would otherwise label them in local time.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: {
      // Half a day either side, so the first and last bars are whole.
      x: { time: true, range: (_u, min, max) => [min - DAY_S / 2, max + DAY_S / 2] },
      visitors: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
      signups: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
    },
    axes: [
      { stroke: c.ink, font: c.font, grid: { show: false }, ticks: { stroke: c.grid, width: 1 } },
      axis('visitors', 3, c.ink),
      axis('signups', 1, c.signups),
    ],
    series: [
      {},
      {
        label: 'Visitors',
        scale: 'visitors',
        fill: c.visitors,
        stroke: c.visitors,
        width: 0,
        paths: uPlot.paths.bars?.({ size: [0.7, 48] }),
        points: { show: false },
      },
      {
        label: 'Sign-ups',
        scale: 'signups',
        stroke: c.signups,
        width: 2,
        points: { show: true, size: 5, fill: c.signups },
      },
    ],
  };
}

const chartData = (series: DayPoint[]): uPlot.AlignedData => [
  series.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000),
  series.map((d) => d.visitors),
  series.map((d) => d.signups),
];

export function DailyChart({ series }: { series: DayPoint[] }) {
  const titleId = useId();
  const descId = useId();
  const holder = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  // One chart for the life of the view; it follows its box's width.
  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    const chart = new uPlot(chartOptions(el), [[], [], []], el);
    plot.current = chart;
    const resized = new ResizeObserver(() => {
      const width = Math.max(1, el.clientWidth);
      if (width !== chart.width) chart.setSize({ width, height: HEIGHT });
    });
    resized.observe(el);
    return () => {
      resized.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, []);

  // A new period is new data for the same chart (its scales are worked out again).
  useEffect(() => {
    plot.current?.setData(chartData(series));
  }, [series]);

  const most = (pick: (d: DayPoint) => number) => Math.max(0, ...series.map(pick));
  return (
    <figure className="cs-chart">
      <div
        ref={holder}
        className="cs-chart-plot"
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        data-days={series.length}
      />
      <p id={titleId} className="cs-visually-hidden">
        Visitors and sign-ups per day
      </p>
      <p id={descId} className="cs-visually-hidden">
        Bars: visitors per day (left scale, at most {most((d) => d.visitors)} on a day). Line: sign-ups per day (right
        scale, at most {most((d) => d.signups)} on a day). The table below has the same figures.
      </p>
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
