import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { dayOf } from '../lib/days.ts';
import { errorText } from '../lib/log-safe.ts';
import { intervalJob } from '../plugins/jobs.ts';
import { purgeAnalytics } from './retention.ts';
import { MemoryVisitBudget } from './visit-budget.ts';
import { BotVerdicts } from './visit-filter.ts';
import { VisitRecorder } from './visit-recorder.ts';
import { registerVisitRoutes } from './visit-routes.ts';
import { DailySalts } from './visitor-hash.ts';

const HOUR = 60 * 60 * 1000;

/**
 * Visitor analytics: the beacon's ingest route, and three background jobs: writing the buffered
 * visits, deleting raw visits past retention, and destroying old daily salts.
 */
export const analyticsFeature = fp(
  async (app: FastifyInstance, opts: { publicUrl: string; retentionDays: number; visitsPerMinute: number }) => {
    const warn = (what: string) => (error: unknown) => app.log.warn({ err: errorText(error) }, what);
    const recorder = new VisitRecorder(app.store.db, { onError: warn('visit counts not written') });
    const salts = new DailySalts(app.store.db);
    // Per instance for now; a shared store implements the same VisitBudget interface.
    const budget = new MemoryVisitBudget(opts.visitsPerMinute);
    const verdicts = new BotVerdicts({ onEvict: () => recorder.drops.add('bot-cache-evicted', dayOf(app.clock())) });

    // The work after a beacon's 204, kept track of so a flush can wait for it.
    const inFlight = new Set<Promise<void>>();
    const afterReply = (work: () => Promise<void>) => {
      const p = work().catch(warn('visit not counted'));
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    registerVisitRoutes(app, { recorder, salts, budget, verdicts, publicUrl: opts.publicUrl, afterReply });

    const flushAll = async () => {
      await Promise.all(inFlight);
      await recorder.flush();
    };
    // The recorder writes on its own once a second; as a job it is the last write at shutdown.
    app.jobs.add({ name: 'visit-flush', start: () => undefined, stop: flushAll, runOnce: flushAll });
    // Several instances doing these at once is harmless (they only delete).
    app.jobs.add(
      intervalJob('analytics-retention', HOUR, () => purgeAnalytics(app.store.db, app.clock(), opts.retentionDays), warn('analytics retention failed')),
    );
    app.jobs.add(intervalJob('salt-purge', HOUR, () => salts.purge(app.clock()), warn('salt purge failed')));
    // Counts buffered by requests are written even when the jobs were never started (tests).
    app.addHook('onClose', flushAll);
  },
  {
    name: 'analytics',
    fastify: '5.x',
    encapsulate: true,
    dependencies: ['dh-store', 'dh-clock', 'dh-geo', 'dh-write-protection', 'dh-jobs'],
    decorators: { fastify: ['store', 'clock', 'geo', 'protection', 'jobs'] },
  },
);
