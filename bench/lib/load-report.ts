// One table of load runs, each production row judged against the bare server beside it, and the
// warning for a machine that was busy before the runs: what every bench prints of its load runs.
import os from 'node:os';
import type { LoadSummary } from './load.ts';
import { mb, recordSummary } from './summary.ts';
import { int, pct, printTable, verdict } from './table.ts';

export interface LoadRow {
  label: string;
  load: LoadSummary;
  /** Response headers + body, as sent for one answer. */
  responseBytes?: string;
  /** Target: at least this share of the bare server's rate. */
  minRatio?: number;
  /** Target: p99 latency at most this. */
  maxP99Ms?: number;
  /** Target: server CPU per request at most this (µs; issue 22). */
  maxCpuUs?: number;
}

/** The CPU target's verdict, or '' where the row has none or its CPU could not be read. */
const cpuVerdict = (row: LoadRow): string => {
  const us = row.load.serverCpuUsPerRequest;
  if (row.maxCpuUs === undefined || us === null) return '';
  return `CPU ≤ ${row.maxCpuUs} µs ${verdict(us <= row.maxCpuUs)}`;
};

const usPerRequest = (v: number | null): string => (v === null ? 'n/a' : `${Math.round(v)} µs`);

/**
 * The load runs, one row each (the bare server last), then each production row's ratio to the
 * bare one and its p99, against the row's targets where it has them.
 */
export function printLoadRows(opts: {
  title: string;
  unit: string;
  rows: LoadRow[];
  sideLabel?: string;
  /** How the closing note names the CPU/request ratio and qualifies it (default: "ratio", nothing). */
  ratioNote?: { name: string; caveat: string };
  /** The bench's name in `npm run bench`'s one table (its production rows go there, beside the bare one). */
  summary?: string;
}): void {
  const { title, unit, rows, sideLabel, ratioNote = { name: 'ratio', caveat: '' } } = opts;
  if (opts.summary) summarise(opts.summary, unit, rows);
  const share = (v: number | null) => (v === null ? 'n/a' : pct(v));
  const withSide = sideLabel !== undefined && rows.some((r) => r.load.sideCpu !== null);
  printTable(
    title,
    [
      'Server',
      unit,
      'sd',
      'p50',
      'p99',
      'max',
      'non-2xx+err',
      'server CPU',
      'CPU/request',
      ...(withSide ? [`${sideLabel} CPU/request`] : []),
      'autocannon CPU',
      'bytes/response (headers + body)',
    ],
    rows.map(({ label, load: s, responseBytes }) => [
      label,
      int(s.reqPerSec),
      `± ${int(s.reqPerSecStddev)}`,
      `${s.latencyP50Ms} ms`,
      `${s.latencyP99Ms} ms`,
      `${s.latencyMaxMs} ms`,
      int(s.non2xx + s.errors),
      share(s.serverCpu),
      usPerRequest(s.serverCpuUsPerRequest),
      ...(withSide ? [usPerRequest(s.sideCpuUsPerRequest)] : []),
      share(s.loadgenCpu),
      responseBytes ?? '',
    ]),
  );

  const bare = rows.at(-1);
  if (!bare) return;
  for (const row of rows.slice(0, -1)) {
    const ratio = row.load.reqPerSec / bare.load.reqPerSec;
    const target = row.minRatio;
    const judged = target === undefined ? '' : `  (target ≥ ${target.toFixed(2)}: ${verdict(ratio >= target)})`;
    const prodCpu = row.load.serverCpuUsPerRequest;
    const bareCpu = bare.load.serverCpuUsPerRequest;
    const cpuRatio = prodCpu && bareCpu ? `; CPU/request ratio ${(bareCpu / prodCpu).toFixed(2)}` : '';
    console.log(`${row.label} / bare: ${unit} ratio ${ratio.toFixed(2)}${judged}${cpuRatio}`);
    const cpuJudged = cpuVerdict(row);
    if (cpuJudged)
      console.log(`${row.label}: CPU/request ${usPerRequest(row.load.serverCpuUsPerRequest)}  (${cpuJudged})`);
    const maxP99 = row.maxP99Ms;
    if (maxP99 !== undefined) {
      const met = verdict(row.load.latencyP99Ms <= maxP99);
      console.log(`${row.label}: p99 ${row.load.latencyP99Ms} ms  (target ≤ ${maxP99} ms: ${met})`);
    }
  }
  const cores = os.availableParallelism();
  console.log(
    `(CPU/request ratio = bare µs / production µs: the ${ratioNote.name} two CPU-bound servers would show, ` +
      `less noisy than ${unit} on a busy machine${ratioNote.caveat}. CPU figures are shares of one core; ` +
      `this machine has ${cores}. autocannon near 100% would mean the load generator, not the server, set the pace.)`,
  );
}

/** Each production row beside the bare one (the last row), for `npm run bench`'s one table. */
function summarise(bench: string, unit: string, rows: LoadRow[]): void {
  const bare = rows.at(-1);
  if (!bare) return;
  recordSummary(
    rows.slice(0, -1).map((row) => {
      const ratio = row.load.reqPerSec / bare.load.reqPerSec;
      const targets = [
        row.minRatio === undefined ? '' : `ratio ≥ ${row.minRatio.toFixed(2)} ${verdict(ratio >= row.minRatio)}`,
        row.maxP99Ms === undefined ? '' : `p99 ≤ ${row.maxP99Ms} ms ${verdict(row.load.latencyP99Ms <= row.maxP99Ms)}`,
        cpuVerdict(row),
      ].filter(Boolean);
      return {
        bench,
        figure: `${unit}, ${row.label}`,
        value: int(row.load.reqPerSec),
        ceiling: int(bare.load.reqPerSec),
        ratio: ratio.toFixed(2),
        cpuPerRequest: `${usPerRequest(row.load.serverCpuUsPerRequest)} / ${usPerRequest(bare.load.serverCpuUsPerRequest)}`,
        p50: `${row.load.latencyP50Ms} ms`,
        tail: `p99 ${row.load.latencyP99Ms} ms`,
        peakRss: mb(row.load.serverPeakRssBytes),
        target: targets.join('; '),
      };
    }),
  );
}

/**
 * Printed when the machine was already busy before the load runs, so figures are read with care.
 * `rates` names what the noise spoils besides latencies.
 */
export function busyWarning(loadBefore: number[], rates = 'rates'): void {
  const cores = os.availableParallelism();
  if ((loadBefore[0] ?? 0) <= cores) return;
  console.log(
    `Warning: the load average was ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before the load runs, ` +
      `above the ${cores} cores. Other processes were competing for the CPU, so ${rates} and latencies are noisy: ` +
      'compare CPU/request, or rerun on a quiet machine.',
  );
}
