// How close each test came to its own time limit, printed at the end of a run. A test
// that needs 60 % of its limit on a good day fails on a machine twice as slow, and then nothing
// lands; this table shows the ten nearest their limits in every run, CI's included, so a margin
// shrinking is seen before it fails. Both runners' reporters (vitest-reporter.ts,
// playwright-reporter.ts) feed it.

export interface Timing {
  name: string;
  /** How long the test ran, in ms. */
  ms: number;
  /** Its time limit, in ms. */
  limitMs: number;
  /** Where most of that time went, when the runner says (the browser tests' longest step). */
  longest?: string | undefined;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The `count` tests with the largest share of their limit used, as lines for the terminal. */
export function marginTable(runner: string, timings: readonly Timing[], count = 10): string[] {
  const ranked = timings
    .filter((t) => t.limitMs > 0)
    .toSorted((a, b) => b.ms / b.limitMs - a.ms / a.limitMs)
    .slice(0, count);
  if (ranked.length === 0) return [];
  const over = ranked.filter((t) => t.ms * 2 > t.limitMs).length;
  return [
    '',
    `${runner}: the ${ranked.length} tests nearest their time limits` +
      (over > 0
        ? ` (${over} used more than half: a machine twice as slow would fail them)`
        : ' (each used at most half)'),
    ...ranked.map(
      (t) =>
        `  ${String(Math.round((100 * t.ms) / t.limitMs)).padStart(3)} %  ${seconds(t.ms).padStart(8)} of ${seconds(t.limitMs).padStart(7)}  ${t.name}` +
        (t.longest ? ` (longest: ${t.longest})` : ''),
    ),
  ];
}
