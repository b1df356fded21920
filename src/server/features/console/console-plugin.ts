import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { BroadcastApprovals } from '../../../shared/admin/broadcast-schema.ts';
import { errorText } from '../../lib/log-safe.ts';
import { intervalJob } from '../../plugins/jobs.ts';
import { registerAllowlistAdminRoutes } from '../allowlist/index.ts';
import { registerAudienceRoutes } from '../analytics/index.ts';
import { purgeOldReads } from '../audit/index.ts';
import {
  BROADCAST_KIND,
  brakeBroadcasts,
  broadcastComposer,
  registerBroadcastRoutes,
  SampleWatch,
  type BroadcastPolicy,
} from '../broadcast/index.ts';
import { registerMailConsoleRoutes } from '../mail/index.ts';
import {
  protectConsoleApi,
  purgeExpired,
  purgeExpiredPasskeyChallenges,
  registerPasskeyRoutes,
  registerSessionRoutes,
  registerSignInRoutes,
  relyingPartyFor,
  signInCounters,
} from '../operators/index.ts';
import { registerReferralConsoleRoutes } from '../referrals/index.ts';
import { registerSubscriberRoutes } from '../subscribers/index.ts';
import { registerAuditRoutes } from './audit-log-routes.ts';
import { registerConsolePages } from './console-page.ts';
import { guardFromContract } from './route-guards.ts';

export interface AdminOptions {
  /** Where `npm run build` put the console (dist/admin). */
  distDir: string;
  siteName: string;
  publicUrl: string;
  /** What a broadcast may carry and link to (broadcastPolicyOf: content file and PUBLIC_URL). */
  broadcastPolicy: BroadcastPolicy;
  /** MAIL_RATE_PER_SEC, for a broadcast's ETA. */
  mailRatePerSec: number;
  /** PERSONAL_DATA_DAILY_ALLOWANCE: personal records an operator reads a day before each needs fresh proof. */
  personalDataDailyAllowance: number;
  /** BROADCAST_APPROVALS: 2 (a second operator approves each send) or 1 (a team of one). */
  broadcastApprovals: BroadcastApprovals;
  /** The erasure ledger's file outside the database (ERASURE_LEDGER). */
  erasureLedger: string;
  /** The presale terms' version live in this build (the content file's presaleTerms.version). */
  termsVersion: string;
}

/**
 * The operators' console: its pages, and its API under /api/admin. Every API route is same-origin
 * only, XSRF-checked on writes, and guarded as its contract says (route-guards.ts); the console's
 * views plug into src/client/admin/console/console-views.tsx.
 */
export const adminFeature = fp(
  async (app: FastifyInstance, opts: AdminOptions) => {
    app.decorateRequest('operator', null);
    await registerConsolePages(app, { distDir: opts.distDir, siteName: opts.siteName });

    app.outbox.registerKind(
      BROADCAST_KIND,
      broadcastComposer({ db: app.store.db, keys: app.keys, publicUrl: opts.publicUrl, siteName: opts.siteName }),
    );

    // Failed sign-in counts: in Redis when REDIS_URL is set, else in this process.
    const counters = signInCounters(app.redis);
    // Passkeys are bound to PUBLIC_URL's host and origin (decision 0030).
    const relyingParty = relyingPartyFor(opts.publicUrl, opts.siteName);
    await app.register(async function consoleApi(api) {
      // Every route is guarded from its contract (src/shared/admin/contracts.ts: its role, and
      // fresh proof where it needs it), before protectConsoleApi checks that each has a guard; a
      // route that sets one of its own stops the start, so a route's guard is written once.
      api.addHook('onRoute', guardFromContract);
      protectConsoleApi(api);
      api.addHook('onSend', async (_request, reply) => {
        // Console answers are for this operator only, now.
        reply.header('cache-control', 'no-store');
      });
      registerSignInRoutes(api, { publicUrl: opts.publicUrl, counters, relyingParty });
      registerPasskeyRoutes(api, { relyingParty });
      registerSessionRoutes(api);
      registerAuditRoutes(api);
      registerBroadcastRoutes(api, {
        publicUrl: opts.publicUrl,
        siteName: opts.siteName,
        policy: opts.broadcastPolicy,
        ratePerSec: opts.mailRatePerSec,
        approvals: opts.broadcastApprovals,
      });
      registerSubscriberRoutes(api, {
        dailyAllowance: opts.personalDataDailyAllowance,
        erasureLedger: opts.erasureLedger,
      });
      registerAudienceRoutes(api);
      registerMailConsoleRoutes(api);
      registerAllowlistAdminRoutes(api, { approvals: opts.broadcastApprovals, termsVersion: opts.termsVersion });
      registerReferralConsoleRoutes(api, { dailyAllowance: opts.personalDataDailyAllowance });
    });

    // Every bounce or complaint stored re-checks its broadcast's rates (broadcast-brake.ts), and so
    // do rows sent until the minimum sample is reached (broadcast-sample-watch.ts).
    app.suppressions.onStored(brakeBroadcasts);
    const sampleWatch = new SampleWatch(app.store.db, app.clock, (error) =>
      app.log.warn({ err: errorText(error) }, 'broadcast rates not re-checked; the next row sent tries again'),
    );
    app.outbox.onBroadcastRowSent((id) => sampleWatch.rowSent(id));

    app.jobs.add(
      intervalJob(
        'admin-session-purge',
        60 * 60_000,
        async () => {
          await purgeExpired(app.store.db, app.clock());
          await purgeOldReads(app.store.db, app.clock());
          await purgeExpiredPasskeyChallenges(app.store.db, app.clock());
        },
        (error) => app.log.warn({ err: errorText(error) }, 'expired console sessions not purged'),
      ),
    );
  },
  {
    name: 'admin',
    fastify: '5.x',
    encapsulate: true,
    dependencies: ['dh-store', 'dh-clock', 'dh-keys', 'dh-redis', 'dh-write-protection', 'dh-jobs', 'dh-mail'],
    decorators: {
      fastify: ['store', 'clock', 'keys', 'redis', 'protection', 'jobs', 'outbox', 'mailer', 'suppressions'],
    },
  },
);
