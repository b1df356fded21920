import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { dayOf } from '../../lib/days.ts';
import { errorText } from '../../lib/log-safe.ts';
import { intervalJob, scheduledJob } from '../../plugins/jobs.ts';
import { type BeaconDropReason, provideBeaconMetrics } from './beacon-metrics.ts';
import { AudienceSums, nextPresetChange, offerAudienceSums } from './audience-sums.ts';
import type { DropReason } from './drop-counts.ts';
import { purgeAnalytics } from './retention.ts';
import { MemoryVisitBudget, SharedOrLocalVisitBudget } from './visit-budget.ts';
import { BotVerdicts } from './visit-filter.ts';
import { VisitRecorder } from './visit-recorder.ts';
import { visitIntake } from './visit-intake.ts';
import { registerVisitRoutes } from './visit-routes.ts';
import { DailySalts } from './visitor-hash.ts';

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;

// The drops that are a beacon let go, under their names in the metrics; a bot verdict pushed out
// of its cache is no beacon.
const beaconDropOf: Record<DropReason, BeaconDropReason | null> = {
  'visit-over-budget': 'over-budget',
  'visit-buffer-full': 'buffer-full',
  'visit-write-failed': 'write-failed',
  'bot-cache-evicted': null,
};

/**
 * Visitor analytics: the beacon's ingest route, and four background jobs: writing the buffered
 * visits, deleting raw visits past retention, destroying old daily salts, and keeping the
 * Audience presets' sums of closed days ready (so no operator's report reads them).
 */
export const analyticsFeature = fp(
  async (
    app: FastifyInstance,
    opts: {
      publicUrl: string;
      retentionDays: number;
      visitsPerMinute: number;
    },
  ) => {
    const warn = (what: string) => (error: unknown) => app.log.warn({ err: errorText(error) }, what);
    provideBeaconMetrics(app.metrics);
    const recorder = new VisitRecorder(app.store.db, {
      onError: warn('visit counts not written'),
      onWritten: (n) => app.metrics.beacons.counted(n),
      onDrop: (reason, n) => {
        const asMetric = beaconDropOf[reason];
        if (asMetric) app.metrics.beacons.dropped(asMetric, n);
      },
    });
    const salts = new DailySalts(app.store.db);
    // The Audience report's kept sums are this app's: made here, filled by the job below, and let
    // go at close (the console's report finds them by the store; audience-sums.ts).
    const audienceSums = new AudienceSums(app.store.db);
    const withdraw = offerAudienceSums(app.store.db, audienceSums);
    app.addHook('onClose', async () => withdraw());
    const budget = app.redis
      ? new SharedOrLocalVisitBudget(app.redis, opts.visitsPerMinute)
      : new MemoryVisitBudget(opts.visitsPerMinute);
    const verdicts = new BotVerdicts({ onEvict: () => recorder.drops.add('bot-cache-evicted', dayOf(app.clock())) });

    // The work after a beacon's 204, kept track of so a flush can wait for it.
    const inFlight = new Set<Promise<void>>();
    const afterReply = (work: () => Promise<void>) => {
      const p = work().catch(warn('visit not counted'));
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    const intake = visitIntake({
      recorder,
      salts,
      budget,
      verdicts,
      geo: app.geo,
      metrics: app.metrics.beacons,
      clock: app.clock,
      publicUrl: opts.publicUrl,
      afterReply,
    });
    registerVisitRoutes(app, intake);

    const flushAll = async () => {
      await Promise.all(inFlight);
      await recorder.flush();
    };
    // The recorder writes on its own once a second; as a job it is the last write at shutdown.
    app.jobs.add({ name: 'visit-flush', start: () => undefined, stop: flushAll, runOnce: flushAll });
    // Several instances doing these at once is harmless (they only delete).
    app.jobs.add(
      intervalJob(
        'analytics-retention',
        HOUR,
        () => purgeAnalytics(app.store.db, app.clock(), opts.retentionDays),
        warn('analytics retention failed'),
      ),
    );
    // At start and just after each day turns and closes (decision 0023). It logs no figures:
    // nothing in them is personal, but nothing in them is needed in a log either.
    app.jobs.add(
      scheduledJob(
        'audience-sums',
        { next: () => nextPresetChange(app.clock()).getTime() - app.clock().getTime() + SECOND, maxWaitMs: HOUR },
        () => audienceSums.keepClosed(app.clock()),
        warn('audience sums not kept'),
      ),
    );
    app.jobs.add(intervalJob('salt-purge', HOUR, () => salts.purge(app.clock()), warn('salt purge failed')));
    // Counts buffered by requests are written even when the jobs were never started (tests).
    app.addHook('onClose', flushAll);
  },
  {
    name: 'analytics',
    fastify: '5.x',
    encapsulate: true,
    dependencies: [
      'dh-store',
      'dh-clock',
      'dh-redis',
      'dh-geo',
      'dh-write-protection',
      'dh-jobs',
      'dh-metrics',
      'dh-health',
    ],
    decorators: { fastify: ['store', 'clock', 'redis', 'geo', 'protection', 'jobs', 'metrics', 'isUnderPressure'] },
  },
);
