// An open-loop load generator: requests go out at a constant arrival rate whatever the server is
// doing, and each one's latency is measured from the moment it was MEANT to be sent. A closed loop
// (autocannon: each connection sends its next request when the last answer arrives) slows down
// with the server, so a stall delays the requests that would have arrived during it without ever
// timing them: "coordinated omission" (Gil Tene), which wrk2 and k6's constant-arrival-rate
// executor correct in the same way as here. Visitors arrive on their own clock, not the server's.
//
// node:http with a keep-alive agent rather than undici: undici is not installed here (Node bundles
// it for fetch, but not as an importable module), and a bench must not add a dependency.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { assertLocal } from './http.ts';

export interface OpenLoopRequest {
  method: 'GET' | 'POST';
  /** Path and query on the options' origin, for a mix of routes; the options' URL when absent. */
  path?: string;
  /** What kind of request it is (a mix's page view, beacon…), returned beside its latency. */
  tag?: string;
  headers: Record<string, string>;
  body?: string;
}

export interface OpenLoopOptions {
  /** Every request goes to this URL (loopback only). */
  url: string;
  /** Arrivals per second. */
  rate: number;
  durationSec: number;
  /**
   * Connections the generator may open. Enough that a request never waits for a free one at the
   * rates measured; when one does (all busy), it is counted, and its latency still runs from its
   * intended send time.
   */
  connections: number;
  /** The next request to send (a new body each, for sign-ups). */
  next: () => OpenLoopRequest;
  /** A request unanswered after this long counts as an error (default 10 s). */
  timeoutMs?: number;
}

export interface OpenLoopResult {
  rate: number;
  durationSec: number;
  sent: number;
  status2xx: number;
  non2xx: number;
  errors: number;
  /** Per answered request, from its intended send time to its last byte (ms), in schedule order. */
  latenciesMs: number[];
  /** The same requests from their actual send time: what a closed loop would have reported. */
  serviceMs: number[];
  /** Intended send time of each answered request, ms after the start (to line latencies up with events). */
  intendedMs: number[];
  /** Each answered request's tag, where next() gave one (else ''), in the same order. */
  tags: string[];
  /** Non-2xx answers and errors by tag (a request without one under ''), for saying which route failed. */
  failedByTag: Record<string, number>;
  /** Requests that found every connection busy at their send time and had to wait for one. */
  waitedForConnection: number;
  /** How late the generator itself sent a request (timer granularity, a busy event loop), at most. */
  maxSendLagMs: number;
  /** performance.now() at the schedule's start: intended time i is startedAt + intendedMs[i]. */
  startedAt: number;
}

/** When request `i` is meant to go out, in ms after the start: the schedule, and nothing else. */
export const intendedSendMs = (i: number, rate: number): number => (i * 1000) / rate;

/** How many requests are due by `elapsedMs` after the start (those with intended time ≤ it). */
export const dueBy = (elapsedMs: number, rate: number): number => Math.floor((elapsedMs * rate) / 1000) + 1;

/** The p-th percentile (0–100) of `values`, nearest rank; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  // The small epsilon keeps 99.9 % of 1,000 at rank 999 despite binary fractions.
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p * sorted.length) / 100 - 1e-9)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** Runs the schedule to its end, then waits for every request still out (up to its timeout). */
export async function runOpenLoop(opts: OpenLoopOptions): Promise<OpenLoopResult> {
  const target = assertLocal(opts.url);
  if (!(opts.rate > 0) || !(opts.durationSec > 0) || !(opts.connections >= 1)) {
    throw new Error(
      `open loop: rate, duration and connections must be positive (got ${opts.rate}/s, ${opts.durationSec} s, ${opts.connections})`,
    );
  }
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const total = Math.max(1, Math.floor(opts.rate * opts.durationSec));
  // HTTPS on loopback is nginx with a certificate made for the run (bench/lib/cluster.ts).
  const tls = target.protocol === 'https:';
  const agent = tls
    ? new https.Agent({ keepAlive: true, maxSockets: opts.connections, rejectUnauthorized: false })
    : new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const request = tls ? https.request : http.request;
  const where = { hostname: target.hostname, port: target.port, path: `${target.pathname}${target.search}` };
  const latencies = new Float64Array(total).fill(Number.NaN);
  const service = new Float64Array(total).fill(Number.NaN);
  const tags: string[] = new Array<string>(total).fill('');
  const failedByTag: Record<string, number> = {};
  const result = { status2xx: 0, non2xx: 0, errors: 0, waitedForConnection: 0, maxSendLagMs: 0 };

  let inFlight = 0;
  const waiting: number[] = [];
  let settled = 0;
  let allSettled: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allSettled = resolve));
  const start = performance.now();

  const finished = new Uint8Array(total);
  const finish = (i: number, sentAt: number, ok: boolean | null): void => {
    // A socket can report an error after its answer ended; each request counts once.
    if (finished[i]) return;
    finished[i] = 1;
    if (ok !== true) failedByTag[tags[i] ?? ''] = (failedByTag[tags[i] ?? ''] ?? 0) + 1;
    const now = performance.now();
    if (ok === null) result.errors++;
    else {
      if (ok) result.status2xx++;
      else result.non2xx++;
      latencies[i] = now - (start + intendedSendMs(i, opts.rate));
      service[i] = now - sentAt;
    }
    inFlight--;
    const queued = waiting.shift();
    if (queued !== undefined) send(queued);
    if (++settled === total) allSettled();
  };

  function send(i: number): void {
    inFlight++;
    const sentAt = performance.now();
    const { method, path, tag, headers, body } = opts.next();
    if (tag !== undefined) tags[i] = tag;
    const req = request({ ...where, path: path ?? where.path, method, headers, agent, timeout: timeoutMs }, (res) => {
      res.on('data', () => undefined);
      res.on('error', () => finish(i, sentAt, null));
      res.on('end', () => finish(i, sentAt, (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', () => finish(i, sentAt, null));
    req.end(body);
  }

  // Each tick sends every request whose intended time has come; the timer's own lateness is
  // recorded, and is part of each latency, as it would be for a visitor.
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const elapsed = performance.now() - start;
      const due = Math.min(total, dueBy(elapsed, opts.rate));
      for (; next < due; next++) {
        result.maxSendLagMs = Math.max(result.maxSendLagMs, elapsed - intendedSendMs(next, opts.rate));
        if (inFlight >= opts.connections) {
          result.waitedForConnection++;
          waiting.push(next);
        } else send(next);
      }
      if (next >= total) resolve();
      else setTimeout(tick, Math.max(0, intendedSendMs(next, opts.rate) - (performance.now() - start)));
    };
    tick();
  });
  await done;
  agent.destroy();

  const answered = [...latencies.keys()].filter((i) => !Number.isNaN(latencies[i] ?? Number.NaN));
  return {
    rate: opts.rate,
    durationSec: opts.durationSec,
    sent: total,
    ...result,
    latenciesMs: answered.map((i) => latencies[i] ?? 0),
    serviceMs: answered.map((i) => service[i] ?? 0),
    intendedMs: answered.map((i) => intendedSendMs(i, opts.rate)),
    tags: answered.map((i) => tags[i] ?? ''),
    failedByTag,
    startedAt: start,
  };
}
