import autocannon from 'autocannon';
import { assertLocal } from './http.ts';
import { cpuSeconds, withTimeout } from './processes.ts';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  connections?: number;
  durationSec?: number;
  /** A run of this length first, not measured, so the JIT and connection pools settle. */
  warmupSec?: number;
  /** The server's pid, to report how busy it was (Linux only). */
  serverPid?: number;
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
  const { url, method = 'GET', headers = {}, body, connections = 50, durationSec = 10, warmupSec = 2 } = opts;
  assertLocal(url);
  const base: autocannon.Options = { url, method, headers, connections, ...(body === undefined ? {} : { body }) };
  if (warmupSec > 0) await cannon({ ...base, duration: warmupSec }, warmupSec);

  const serverBefore = opts.serverPid ? cpuSeconds(opts.serverPid) : null;
  const selfBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await cannon({ ...base, duration: durationSec }, durationSec);
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const serverAfter = opts.serverPid ? cpuSeconds(opts.serverPid) : null;
  const self = process.cpuUsage(selfBefore);

  const serverCpu = serverBefore !== null && serverAfter !== null ? (serverAfter - serverBefore) / wall : null;
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
    serverCpuUsPerRequest:
      serverCpu !== null && result.requests.total > 0 ? (serverCpu * wall * 1e6) / result.requests.total : null,
    loadgenCpu: (self.user + self.system) / 1e6 / wall,
  };
}
