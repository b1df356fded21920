import autocannon from 'autocannon';
import { assertLocal } from './http.ts';
import { cpuSeconds, peakRssBytes, withTimeout } from './processes.ts';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /**
   * Autocannon's request list, for requests that change as the run goes (a fresh e-mail address
   * per sign-up, a different client address per beacon): its `setupRequest` rebuilds each one.
   * Overrides method/headers/body of the options above where it sets them.
   */
  requests?: autocannon.Request[];
  connections?: number;
  /** Requests per second over all connections; unset, as fast as the server answers. */
  overallRate?: number;
  durationSec?: number;
  /** A run of this length first, not measured, so the JIT and connection pools settle. */
  warmupSec?: number;
  /** The server's pid, to report how busy it was (Linux only); several for instances behind a proxy. */
  serverPid?: number | number[];
  /**
   * Other processes working for the server (e.g. its PostgreSQL backends), asked for after the
   * warm-up and again after the run, since such processes come and go; their CPU is reported
   * apart from the server's.
   */
  sidePids?: () => Promise<number[]>;
}

/** Counts of one autocannon run, for benches that check what the server stored against them. */
export interface RunCounts {
  /** Responses received (any status). */
  responses: number;
  status2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface LoadSummary {
  reqPerSec: number;
  reqPerSecStddev: number;
  requests: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  bytesPerSec: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationSec: number;
  /** Share of one core the server used during the measured run; null where unknown. */
  serverCpu: number | null;
  /**
   * Server CPU time per response, in microseconds. Unlike req/s it barely moves when other
   * processes compete for the cores, so it is the steadier way to compare two servers.
   */
  serverCpuUsPerRequest: number | null;
  /** Share of one core this process (the load generator) used. */
  loadgenCpu: number;
  /** 2xx responses of the measured run. */
  status2xx: number;
  /** The unmeasured warm-up's counts (zeros without one): its requests reach the server too. */
  warmup: RunCounts;
  /** Share of one core the `sidePids` processes used together; null without them. */
  sideCpu: number | null;
  sideCpuUsPerRequest: number | null;
  /** The server's peak resident memory up to the end of the run (its whole life so far); null where unknown. */
  serverPeakRssBytes: number | null;
}

const countsOf = (r: autocannon.Result): RunCounts => ({
  responses: r.requests.total,
  status2xx: r['2xx'],
  non2xx: r.non2xx,
  errors: r.errors,
  timeouts: r.timeouts,
});

const NO_RUN: RunCounts = { responses: 0, status2xx: 0, non2xx: 0, errors: 0, timeouts: 0 };

/** `read` summed over `pids`; null when there are none or any cannot be read. */
function sumOver(pids: number[], read: (pid: number) => number | null): number | null {
  if (pids.length === 0) return null;
  let sum = 0;
  for (const pid of pids) {
    const v = read(pid);
    if (v === null) return null;
    sum += v;
  }
  return sum;
}

/** CPU seconds so far of each pid that can be read (no /proc, or gone: left out). */
function cpuByPid(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const s = cpuSeconds(pid);
    if (s !== null) out.set(pid, s);
  }
  return out;
}

/**
 * CPU seconds the side processes used between two samples: one that started in between counts
 * from its start (its whole life lies in the run); one that ended in between is lost, so this can
 * only undercount, by what a process did before it went idle and was closed.
 */
function sideCpuSeconds(before: Map<number, number>, after: Map<number, number>): number | null {
  if (after.size === 0) return null;
  let sum = 0;
  for (const [pid, s] of after) sum += s - (before.get(pid) ?? 0);
  return sum;
}

function cannon(options: autocannon.Options, durationSec: number): Promise<autocannon.Result> {
  let instance: autocannon.Instance | undefined;
  const run = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(options, (error: unknown, result) => (error ? reject(error) : resolve(result)));
  });
  // Autocannon ends on its own after `duration`; the margin only matters if the server hangs.
  return withTimeout(run, (durationSec + 15) * 1000, `load run against ${options.url}`, () => instance?.stop());
}

/** A bounded autocannon run (after an unmeasured warm-up) against a server on 127.0.0.1. */
export async function runLoad(opts: LoadOptions): Promise<LoadSummary> {
  const { url, method = 'GET', headers = {}, body, requests, connections = 50, durationSec = 10, warmupSec = 2 } = opts;
  assertLocal(url);
  const base: autocannon.Options = {
    url,
    method,
    headers,
    connections,
    ...(body === undefined ? {} : { body }),
    ...(opts.overallRate ? { overallRate: opts.overallRate } : {}),
  };
  // Autocannon writes its built request buffers onto these objects, so each run gets copies.
  const withRequests = (o: autocannon.Options): autocannon.Options =>
    requests ? { ...o, requests: requests.map((r) => ({ ...r })) } : o;
  const warmup =
    warmupSec > 0 ? countsOf(await cannon(withRequests({ ...base, duration: warmupSec }), warmupSec)) : NO_RUN;

  const sideBefore = opts.sidePids ? cpuByPid(await opts.sidePids()) : null;
  const serverPids = opts.serverPid === undefined ? [] : [opts.serverPid].flat();
  const serverBefore = sumOver(serverPids, cpuSeconds);
  const selfBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await cannon(withRequests({ ...base, duration: durationSec }), durationSec);
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const serverAfter = sumOver(serverPids, cpuSeconds);
  const self = process.cpuUsage(selfBefore);
  const sideAfter = opts.sidePids ? cpuByPid(await opts.sidePids()) : null;

  const serverCpu = serverBefore !== null && serverAfter !== null ? (serverAfter - serverBefore) / wall : null;
  const sideSeconds = sideBefore && sideAfter ? sideCpuSeconds(sideBefore, sideAfter) : null;
  const sideCpu = sideSeconds === null ? null : sideSeconds / wall;
  const perRequest = (share: number | null) =>
    share !== null && result.requests.total > 0 ? (share * wall * 1e6) / result.requests.total : null;
  return {
    reqPerSec: result.requests.average,
    reqPerSecStddev: result.requests.stddev,
    requests: result.requests.total,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    bytesPerSec: result.throughput.average,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSec: result.duration,
    serverCpu,
    serverCpuUsPerRequest: perRequest(serverCpu),
    loadgenCpu: (self.user + self.system) / 1e6 / wall,
    status2xx: result['2xx'],
    warmup,
    sideCpu,
    sideCpuUsPerRequest: perRequest(sideCpu),
    serverPeakRssBytes: sumOver(serverPids, peakRssBytes),
  };
}
