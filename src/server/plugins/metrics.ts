import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { apiError } from '../../shared/api-error.ts';
import { metricsPath } from '../../shared/paths.ts';
import { errorText } from '../lib/log-safe.ts';

// Label values are only ever taken from these fixed sets, from route patterns, or from names our
// own code chose (email kinds): never from what a visitor sent, so no label can carry an address,
// a token or an id, and the number of series stays small whatever the traffic.

/** How an accepted sign-up landed: a new person, someone already on the list, or someone back. */
export type SignupOutcome = 'created' | 'updated' | 'resubscribed';
/** A sign-up answered as a success but not stored: a bot caught by a trap. */
export type SignupTrap = 'honeypot' | 'too-fast';
/**
 * Why a beacon was answered (always 204) but not counted: over the client's budget, the write
 * buffer full, its flush failed, unreadable or from another site, or skipped on purpose (bots,
 * Do Not Track, Global Privacy Control, prefetches).
 */
export const beaconDropReasons = ['over-budget', 'buffer-full', 'write-failed', 'invalid', 'bot', 'dnt', 'gpc', 'prefetch'] as const;
export type BeaconDropReason = (typeof beaconDropReasons)[number];

/** The outbox's pending rows of one kind of email, and when the oldest of them was queued. */
export interface OutboxBacklog {
  kind: string;
  pending: number;
  /** ISO time the oldest pending row was created. */
  oldestCreatedAt: string;
}

/**
 * What features count, without knowing prom-client: each method is one increment of one series.
 * The HTTP counts and the process's own figures are taken here, not by features.
 */
export interface AppMetrics {
  signups: {
    accepted(outcome: SignupOutcome): void;
    trapped(trap: SignupTrap): void;
  };
  mail: {
    /** `kind` is the outbox kind (confirmation, broadcast, …): a name from our code. */
    sent(kind: string): void;
    /** One failed attempt (it is retried later unless the server refused for good). */
    failed(kind: string): void;
  };
  beacons: {
    /** Visits written to the store. */
    counted(n: number): void;
    dropped(reason: BeaconDropReason, n?: number): void;
  };
  outbox: {
    /** How to read the backlog; called at scrape time only (the mail plugin owns the query). */
    measureWith(read: () => Promise<OutboxBacklog[]>): void;
  };
}

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

    const signups = new Counter({
      name: 'dh_signups_total',
      help: 'Sign-ups accepted and stored: created (a new person), updated (already on the list), resubscribed.',
      labelNames: ['outcome'] as const,
      registers,
    });
    const trapped = new Counter({
      name: 'dh_signups_trapped_total',
      help: 'Sign-ups answered as a success but not stored, caught by a bot trap.',
      labelNames: ['trap'] as const,
      registers,
    });
    const mailSent = new Counter({ name: 'dh_mail_sent_total', help: 'Emails accepted by the mail server, by kind.', labelNames: ['kind'] as const, registers });
    const mailFailed = new Counter({
      name: 'dh_mail_failed_total',
      help: 'Attempts to send an email that failed, by kind (most are retried later).',
      labelNames: ['kind'] as const,
      registers,
    });
    const beaconsCounted = new Counter({ name: 'dh_beacons_counted_total', help: 'Visits written to the store.', registers });
    const beaconsDropped = new Counter({
      name: 'dh_beacons_dropped_total',
      help: 'Beacons answered but not counted, by reason.',
      labelNames: ['reason'] as const,
      registers,
    });
    // Every series of a fixed set exists from the start at 0, so a rate() sees the first one.
    for (const outcome of ['created', 'updated', 'resubscribed'] as const) signups.inc({ outcome }, 0);
    for (const trap of ['honeypot', 'too-fast'] as const) trapped.inc({ trap }, 0);
    for (const reason of beaconDropReasons) beaconsDropped.inc({ reason }, 0);

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

    app.decorate('metrics', {
      signups: {
        accepted: (outcome) => signups.inc({ outcome }),
        trapped: (trap) => trapped.inc({ trap }),
      },
      mail: {
        sent: (kind) => mailSent.inc({ kind }),
        failed: (kind) => mailFailed.inc({ kind }),
      },
      beacons: {
        counted: (n) => beaconsCounted.inc(n),
        dropped: (reason, n = 1) => beaconsDropped.inc({ reason }, n),
      },
      outbox: {
        measureWith(read) {
          readBacklog = read;
        },
      },
    } satisfies AppMetrics);

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
            .send(apiError('unauthorized', 'The metrics need their token: send it as "Authorization: Bearer <METRICS_TOKEN>".'));
        },
      },
      async (_request, reply) => {
        const body = await register.metrics();
        return reply.header('cache-control', 'no-store').type(register.contentType).send(body);
      },
    );
  },
  { name: 'dh-metrics', fastify: '5.x', dependencies: ['dh-clock', 'dh-health'], decorators: { fastify: ['clock', 'memoryUsage', 'isUnderPressure'] } },
);
