import { performance } from 'node:perf_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { logSafeError } from './log-safe.ts';
import type { RequestLog } from './request-log.ts';

// Answers that go out before Fastify's routing and hooks (docs/decisions/0049-proof-fast-path.md).
// A fast path takes only the requests it can answer exactly as the route behind it would, from
// memory and at once; it leaves every other request untouched, and Fastify answers it as usual.
// What every response owes beyond its own bytes is kept here, once for all fast paths: the HTTP
// metrics (the same series as the onResponse hook's), the request's log line (written by the same
// RequestLog as Fastify's, through the same serializers), and stepping aside while the app closes
// (so the one 503 the app gives then is Fastify's).

export interface FastPath {
  /** The route pattern it answers for: the metrics' `route` label, as Fastify's would be. */
  route: string;
  /**
   * Answers the request in full and returns the status it sent, or returns 0 having touched
   * nothing (not read, not written), so that Fastify can answer it instead.
   */
  answer(req: IncomingMessage, res: ServerResponse): number;
}

type Recorder = (seconds: number) => void;

/**
 * Where a fast path's answers are counted: the metrics plugin's HTTP series (its AppMetrics has
 * this method), named here so that lib imports nothing from the plugins above it.
 */
export interface HttpAnswerMetrics {
  /** The recorder of one (method, route, status): counts the answer and times it. */
  httpAnswer(method: string, route: string, status: number): Recorder;
}

export class FastPaths {
  private readonly paths: FastPath[] = [];
  private log: FastifyBaseLogger | null = null;
  private metrics: HttpAnswerMetrics | null = null;
  private requests: RequestLog | null = null;
  private closing = false;
  private readonly recorders = new Map<string, Recorder>();
  private served = 0;

  add(path: FastPath): void {
    this.paths.push(path);
  }

  /** Turns them on, once the log and the metrics they report to exist. */
  start(deps: { log: FastifyBaseLogger; metrics: HttpAnswerMetrics; requests: RequestLog }): void {
    this.log = deps.log;
    this.metrics = deps.metrics;
    this.requests = deps.requests;
  }

  /** Turns them off for good: the app is closing, and Fastify answers what still arrives. */
  close(): void {
    this.closing = true;
  }

  private recorder(method: string, route: string, status: number, metrics: HttpAnswerMetrics): Recorder {
    const key = `${method} ${status} ${route}`;
    let record = this.recorders.get(key);
    if (!record) this.recorders.set(key, (record = metrics.httpAnswer(method, route, status)));
    return record;
  }

  /** Whether a fast path answered the request; when not, nothing of it was touched. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const { log, metrics, requests } = this;
    if (this.closing || log === null || metrics === null || requests === null) return false;
    const started = performance.now();
    for (const path of this.paths) {
      let status: number;
      try {
        status = path.answer(req, res);
      } catch (error) {
        log.error({ err: logSafeError(error) }, 'fast path failed');
        // Nothing sent yet: the route answers (or fails in the one error shape, as it would have).
        if (!res.headersSent) return false;
        res.destroy();
        return true;
      }
      if (status === 0) continue;
      const ms = performance.now() - started;
      const method = req.method ?? 'GET';
      this.recorder(method, path.route, status, metrics)(ms / 1000);
      // Fastify's line (or none), by the same rule. Its ids are numbered apart from Fastify's own,
      // which this cannot reach.
      this.served = (this.served + 1) % 0x7fffffff;
      const served = this.served;
      const reqId = () => `fast-${served.toString(36)}`;
      const url = req.url ?? '';
      requests.started(log, method, url, reqId);
      requests.line(log, { method, url, status, ms }, reqId);
      return true;
    }
    return false;
  }
}
