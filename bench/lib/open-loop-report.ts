// The open-loop runs as a table, and their rows in `npm run bench`'s one table: latency as a
// visitor arriving on their own clock feels it, at shares of the capacity measured in the same run.
import { percentile } from './open-loop.ts';
import { loadAverage } from './run.ts';
import type { OpenLoopRow } from './signup-load.ts';
import { recordSummary } from './summary.ts';
import { int, pct, printTable, verdict } from './table.ts';

const msText = (v: number): string => (Number.isNaN(v) ? 'n/a' : v < 10 ? `${v.toFixed(1)} ms` : `${Math.round(v)} ms`);
const us = (v: number | null): string => (v === null ? 'n/a' : `${Math.round(v)} µs`);

/**
 * Prints the runs; with `summary`, records each in the one table, the target (p99 at most
 * `target.p99Ms`) judged on the runs at `target.share` of capacity.
 */
export function printOpenLoopRows(opts: {
  title: string;
  rows: OpenLoopRow[];
  target: { share: number; p99Ms: number };
  summary?: string;
}): void {
  const { rows, target } = opts;
  const p = (r: OpenLoopRow, q: number) => percentile(r.result.latenciesMs, q);
  printTable(
    opts.title,
    [
      'Server',
      'offered',
      'rate/s',
      'sent',
      'non-2xx+err',
      'waited for a connection',
      'p50',
      'p99',
      'p99.9',
      'max',
      'p99 from actual send',
      'max send lag',
      'CPU/request',
    ],
    rows.map((r) => [
      r.label,
      pct(r.share),
      int(r.result.rate),
      int(r.result.sent),
      int(r.result.non2xx + r.result.errors),
      int(r.result.waitedForConnection),
      msText(p(r, 50)),
      msText(p(r, 99)),
      msText(p(r, 99.9)),
      msText(p(r, 100)),
      msText(percentile(r.result.serviceMs, 99)),
      msText(r.result.maxSendLagMs),
      us(r.serverCpuUsPerRequest),
    ]),
  );
  for (const r of rows.filter((row) => row.share === target.share && !row.floor)) {
    console.log(
      `${r.label} at ${pct(r.share)} of capacity: p99 ${msText(p(r, 99))}  (target ≤ ${target.p99Ms} ms: ${verdict(p(r, 99) <= target.p99Ms)})`,
    );
  }
  console.log(
    '(Open loop: requests leave at a constant rate whatever the server does, and each latency runs from the moment ' +
      'the request was meant to leave, so a stall counts against every visitor who arrived during it (coordinated-' +
      '"omission" corrected, as wrk2 and k6 constant-arrival-rate do). "p99 from actual send" is what a closed loop ' +
      "would have reported for the same requests; the floor row is the bare server at the SQLite row's 50 % rate, so a " +
      'miss it shares is the machine\'s; "waited for a connection" should be 0, else the generator was short of ' +
      `sockets; "max send lag" is how late the generator's own timer fired. Load average now ${loadAverage()}.)`,
  );
  if (!opts.summary) return;
  recordSummary(
    rows.map((r) => ({
      bench: opts.summary ?? '',
      figure: `open loop at ${pct(r.share)} of capacity, ${r.label}`,
      value: `${int(r.result.rate)}/s`,
      cpuPerRequest: us(r.serverCpuUsPerRequest),
      p50: msText(p(r, 50)),
      tail: `p99 ${msText(p(r, 99))}, p99.9 ${msText(p(r, 99.9))}`,
      target: r.floor
        ? 'floor: not judged'
        : r.share === target.share
          ? `p99 ≤ ${target.p99Ms} ms ${verdict(p(r, 99) <= target.p99Ms)}`
          : '',
    })),
  );
}
