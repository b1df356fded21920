// What the POST benches (sign-ups, beacons) share: progress lines, the machine they ran on, and
// one table of load runs with each production row judged against the bare server beside it.
import { statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadSummary } from './load.ts';
import { int, pct, printTable, verdict } from './table.ts';

export const progress = (message: string): void => {
  process.stderr.write(`· ${message}\n`);
};

export const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** One line on where and on what the figures were taken. */
export function machineLine(name: string): string {
  return `${name}: node ${process.version}, ${os.availableParallelism()} cores, load average ${loadAverage()}`;
}

// statfs(2) f_type of tmpfs: memory, where fsync costs nothing.
const TMPFS_MAGIC = 0x01021994;

/** A warning when `dir` lives in memory, where "durable" commits would cost nothing; else null. */
export function tmpfsWarning(dir: string): string | null {
  try {
    if (statfsSync(dir).type !== TMPFS_MAGIC) return null;
  } catch {
    return null;
  }
  return (
    `Warning: ${path.dirname(dir)} is tmpfs (memory), so SQLite's fsyncs cost nothing here and ` +
    'the durable-write figures are better than any disk would give. Set TMPDIR to a directory on disk.'
  );
}

/**
 * Node flags for profiling: with BENCH_CPU_PROF=<dir> set, each production server writes a V8 CPU
 * profile (open it in Chrome DevTools) into <dir> when it exits.
 */
export function cpuProfileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return [];
  progress(`a CPU profile of this server goes to ${path.resolve(dir)}`);
  return ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`];
}

export interface LoadRow {
  label: string;
  load: LoadSummary;
  /** Response headers + body, as sent for one answer. */
  responseBytes?: string;
  /** Target: at least this share of the bare server's rate. */
  minRatio?: number;
  /** Target: p99 latency at most this. */
  maxP99Ms?: number;
}

const usPerRequest = (v: number | null): string => (v === null ? 'n/a' : `${Math.round(v)} µs`);

/**
 * The load runs, one row each (the bare server last), then each production row's ratio to the
 * bare one and its p99, against the row's targets where it has them.
 */
export function printLoadRows(opts: { title: string; unit: string; rows: LoadRow[]; sideLabel?: string }): void {
  const { title, unit, rows, sideLabel } = opts;
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
    const maxP99 = row.maxP99Ms;
    if (maxP99 !== undefined) {
      const met = verdict(row.load.latencyP99Ms <= maxP99);
      console.log(`${row.label}: p99 ${row.load.latencyP99Ms} ms  (target ≤ ${maxP99} ms: ${met})`);
    }
  }
  const cores = os.availableParallelism();
  console.log(
    '(CPU/request ratio = bare µs / production µs: the ratio two CPU-bound servers would show, less noisy ' +
      `than ${unit} on a busy machine. CPU figures are shares of one core; this machine has ${cores}. ` +
      'autocannon near 100% would mean the load generator, not the server, set the pace.)',
  );
}

/** Printed when the machine was already busy before the load runs, so figures are read with care. */
export function busyWarning(loadBefore: number[]): void {
  const cores = os.availableParallelism();
  if ((loadBefore[0] ?? 0) <= cores) return;
  console.log(
    `Warning: the load average was ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before the load runs, ` +
      `above the ${cores} cores. Other processes were competing for the CPU, so rates and latencies are noisy: ` +
      'compare CPU/request, or rerun on a quiet machine.',
  );
}
