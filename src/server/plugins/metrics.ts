import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { apiError } from '../../shared/api-error.ts';
import { metricsPath } from '../../shared/paths.ts';
import { errorText } from '../lib/log-safe.ts';

// Label values are only ever taken from fixed sets (each feature's, in its own …-metrics.ts), from
// route patterns, or from names our own code chose (email kinds): never from what a visitor sent,
// so no label can carry an address, a token or an id, and the number of series stays small
// whatever the traffic.

/** The outbox's pending rows of one kind of email, and when the oldest of them was queued. */
export interface OutboxBacklog {
  kind: string;
  pending: number;
  /** ISO time the oldest pending row was created. */
  oldestCreatedAt: string;
}

/**
 * What each feature counts, under its own key (`app.metrics.signups`, `app.metrics.mail`, …):
 * every feature declares its key here from its own module (TypeScript merges the declarations)
 * and provides it with `app.metrics.provide(key, value)` when its plugin registers, before any
 * of its routes or jobs can count. Kept out of this file so that a feature's counters, and the
 * words they take, live with the feature.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface FeatureMetrics {}

/** A counter of this app's registry, as a feature sees it. */
export interface FeatureCounter<L extends string> {
  inc(labels: Partial<Record<L, string>>, value?: number): void;
  inc(value?: number): void;
}

/**
 * What features count with, without knowing prom-client: counters on the app's own registry,
 * and the outbox backlog read at scrape time. The HTTP counts and the process's own figures are
 * taken here, not by features.
 */
export type AppMetrics = FeatureMetrics & {
  /** A counter on this app's registry; `labels` are names our code chose, never visitors' words. */
  counter<L extends string = never>(options: {
    name: string;
    help: string;
    labelNames?: readonly L[];
  }): FeatureCounter<L>;
  /** Makes a feature's metrics reachable as `app.metrics[key]`; once per key. */
  provide<K extends keyof FeatureMetrics>(key: K, metrics: FeatureMetrics[K]): void;
  outbox: {
    /** How to read the backlog; called at scrape time only (the mail plugin owns the query). */
    measureWith(read: () => Promise<OutboxBacklog[]>): void;
  };
  /**
   * The HTTP counts for an answer that does not pass Fastify's hooks (the proof fast path,
   * decision 0049): the same two series the onResponse hook adds to, for one method, route and status.
   */
  httpAnswer(method: string, route: string, status: number): (seconds: number) => void;
};

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

export interface MetricsOptions {
  /** METRICS_TOKEN: without it there is no /metrics route at all (404 like any unknown path). */
  token: string | undefined;
}

/** Label for a request that matched no route: the raw URL could hold anything. */
export const UNMATCHED_ROUTE = 'unmatched';

// Digests are compared, not the strings: both are 32 bytes whatever was sent, so neither the
// comparison nor a length check tells an attacker how close a guess was.
const digest = (s: string) => createHash('sha256').update(s).digest();
const bearer = (header: string | undefined): string => /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';

/**
 * Metrics in Prometheus' text format, on a registry of this app's own (tests build many apps in
 * one process; prom-client's global registry would mix them and refuse the second set of names).
 * Features count through `app.metrics`; /metrics exists only when METRICS_TOKEN is set, asks for
 * it as a bearer token, is never cached, and reads the store once per scrape (the outbox backlog).
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: MetricsOptions) => {
    const register = new Registry();
    const registers = [register];

    const requests = new Counter({
      name: 'dh_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern ("unmatched" for no route) and status code.',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    });
    const duration = new Histogram({
      name: 'dh_http_request_duration_seconds',
      help: 'Time from the request arriving to the response being sent, by method and route pattern.',
      labelNames: ['method', 'route'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
      // The pattern (/api/admin/subscribers/:id), never the URL: no ids or tokens, bounded series.
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      requests.inc({ method: request.method, route, status: String(reply.statusCode) });
      duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      done();
    });
    // The very series the hook adds to; a series appears on its first answer, as the hook's do.
    const httpAnswer = (method: string, route: string, status: number) => {
      const counted = requests.labels({ method, route, status: String(status) });
      const timed = duration.labels({ method, route });
      return (seconds: number) => {
        counted.inc();
        timed.observe(seconds);
      };
    };

    // The backlog is read once per scrape even though two gauges show it: both collect() calls
    // start in the same gathering and share the one query in flight (so do concurrent scrapes).
    let readBacklog: (() => Promise<OutboxBacklog[]>) | undefined;
    let inFlight: Promise<OutboxBacklog[] | null> | undefined;
    const backlog = () =>
      (inFlight ??= (readBacklog?.() ?? Promise.resolve([]))
        .catch((error: unknown) => {
          app.log.warn({ err: errorText(error) }, 'outbox backlog not readable for metrics');
          return null;
        })
        .finally(() => {
          inFlight = undefined;
        }));
    // Kinds seen once stay at 0 when emptied, rather than vanishing from the scrape.
    const kindsSeen = new Set<string>();
    const showBacklog = async (gauge: Gauge<'kind'>, value: (b: OutboxBacklog) => number) => {
      const rows = await backlog();
      gauge.reset();
      if (rows === null) return; // no figure rather than a wrong one
      for (const row of rows) kindsSeen.add(row.kind);
      for (const kind of kindsSeen) {
        const row = rows.find((r) => r.kind === kind);
        gauge.set({ kind }, row ? value(row) : 0);
      }
    };
    new Gauge({
      name: 'dh_outbox_pending',
      help: 'Emails waiting in the outbox (pending rows), by kind.',
      labelNames: ['kind'] as const,
      registers,
      async collect() {
        await showBacklog(this, (b) => b.pending);
      },
    });
    new Gauge({
      name: 'dh_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest pending email in the outbox, by kind.',
      labelNames: ['kind'] as const,
      registers,
      async collect() {
        await showBacklog(this, (b) => Math.max(0, (app.clock().getTime() - Date.parse(b.oldestCreatedAt)) / 1000));
      },
    });

    // The figure the overload guard (dh-health) compares with OVERLOAD_EVENT_LOOP_DELAY_MS: the
    // mean delay over its last one-second sample.
    new Gauge({
      name: 'dh_event_loop_delay_seconds',
      help: 'Mean event-loop delay over the last second, as the overload guard measures it.',
      registers,
      collect() {
        this.set(app.memoryUsage().eventLoopDelay / 1000);
      },
    });
    new Gauge({
      name: 'dh_overloaded',
      help: '1 while writes are refused with 503 because the process is past its overload thresholds.',
      registers,
      collect() {
        this.set(app.isUnderPressure() ? 1 : 0);
      },
    });

    // Cast: the features' keys are not here yet; each feature provides its own as it registers,
    // before anything of it can count.
    const own: Omit<AppMetrics, keyof FeatureMetrics> = {
      counter: ({ name, help, labelNames = [] }) => new Counter({ name, help, labelNames, registers }),
      provide(key, value) {
        if (key in own) throw new Error(`The metrics ${key} are provided already.`);
        Object.assign(own, { [key]: value });
      },
      outbox: {
        measureWith(read) {
          readBacklog = read;
        },
      },
      httpAnswer,
    };
    app.decorate('metrics', own as AppMetrics);

    const token = opts.token;
    if (!token) return;

    // Only when someone can read them: process figures (CPU, memory, GC, handles) and the event
    // loop's delay since start (nodejs_eventloop_lag_*, perf_hooks' histogram), under their usual
    // names so ready-made Node.js dashboards work.
    collectDefaultMetrics({ register });

    const expected = digest(token);
    app.get(
      metricsPath,
      {
        onRequest: async (request, reply) => {
          if (timingSafeEqual(digest(bearer(request.headers.authorization)), expected)) return;
          return reply
            .code(401)
            .header('www-authenticate', 'Bearer')
            .header('cache-control', 'no-store')
            .send(
              apiError(
                'unauthorized',
                'The metrics need their token: send it as "Authorization: Bearer <METRICS_TOKEN>".',
              ),
            );
        },
      },
      async (_request, reply) => {
        const body = await register.metrics();
        return reply.header('cache-control', 'no-store').type(register.contentType).send(body);
      },
    );
  },
  {
    name: 'dh-metrics',
    fastify: '5.x',
    dependencies: ['dh-clock', 'dh-health'],
    decorators: { fastify: ['clock', 'memoryUsage', 'isUnderPressure'] },
  },
);
