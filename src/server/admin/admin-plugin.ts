import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorText } from '../lib/log-safe.ts';
import { intervalJob } from '../plugins/jobs.ts';
import { registerAudienceRoutes } from './audience-routes.ts';
import { registerAuditRoutes } from './audit-routes.ts';
import { broadcastComposer } from './broadcast-composer.ts';
import { registerBroadcastRoutes } from './broadcast-routes.ts';
import { BROADCAST_KIND } from './broadcast-store.ts';
import { registerConsolePages } from './console-page.ts';
import { protectConsoleApi } from './guards.ts';
import { registerSessionRoutes } from './session-routes.ts';
import { registerSignInRoutes } from './sign-in-routes.ts';
import { registerSubscriberRoutes } from './subscriber-routes.ts';
import { memoryFailureCounters, sharedOrLocalFailureCounters, type FailureCounters } from './sign-in-backoff.ts';
import { purgeExpired } from './sessions.ts';

export interface AdminOptions {
  /** Where `npm run build` put the console (dist/admin). */
  distDir: string;
  siteName: string;
  publicUrl: string;
  /** The content file's official contract address (a broadcast may carry no other), or null. */
  contractAddress: string | null;
  /** MAIL_RATE_PER_SEC, for a broadcast's ETA. */
  mailRatePerSec: number;
  /** The erasure ledger's file outside the database (ERASURE_LEDGER). */
  erasureLedger: string;
  /** Failed sign-in counts; by default in Redis when REDIS_URL is set, else in this process. */
  counters?: FailureCounters;
}

/**
 * The operators' console: its pages, and its API under /api/admin. Every API route is same-origin
 * only, XSRF-checked on writes, and declares its guard (guards.ts); the console's views plug into
 * src/client/admin/console-views.tsx.
 */
export const adminFeature = fp(
  async (app: FastifyInstance, opts: AdminOptions) => {
    app.decorateRequest('operator', null);
    await registerConsolePages(app, { distDir: opts.distDir, siteName: opts.siteName });

    app.outbox.registerKind(
      BROADCAST_KIND,
      broadcastComposer({ db: app.store.db, keys: app.keys, publicUrl: opts.publicUrl, siteName: opts.siteName }),
    );

    const counters = opts.counters ?? (app.redis ? sharedOrLocalFailureCounters(app.redis) : memoryFailureCounters());
    await app.register(async function consoleApi(api) {
      protectConsoleApi(api);
      api.addHook('onSend', async (_request, reply) => {
        // Console answers are for this operator only, now.
        reply.header('cache-control', 'no-store');
      });
      registerSignInRoutes(api, { publicUrl: opts.publicUrl, counters });
      registerSessionRoutes(api);
      registerAuditRoutes(api);
      registerBroadcastRoutes(api, {
        publicUrl: opts.publicUrl,
        siteName: opts.siteName,
        contractAddress: opts.contractAddress,
        ratePerSec: opts.mailRatePerSec,
      });
      registerSubscriberRoutes(api, { erasureLedger: opts.erasureLedger });
      registerAudienceRoutes(api);
    });

    app.jobs.add(
      intervalJob(
        'admin-session-purge',
        60 * 60_000,
        () => purgeExpired(app.store.db, app.clock()),
        (error) => app.log.warn({ err: errorText(error) }, 'expired console sessions not purged'),
      ),
    );
  },
  {
    name: 'admin',
    fastify: '5.x',
    encapsulate: true,
    dependencies: ['dh-store', 'dh-clock', 'dh-keys', 'dh-redis', 'dh-write-protection', 'dh-jobs', 'dh-mail'],
    decorators: { fastify: ['store', 'clock', 'keys', 'redis', 'protection', 'jobs', 'outbox', 'mailer'] },
  },
);
