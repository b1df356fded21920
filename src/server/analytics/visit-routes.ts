import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiPaths } from '../../shared/paths.ts';
import { visitBeaconSchema } from '../../shared/visit-schema.ts';
import { clientNetwork } from '../lib/client-network.ts';
import { dayOf } from '../lib/days.ts';
import type { VisitBudget } from './visit-budget.ts';
import type { VisitRecorder } from './visit-recorder.ts';
import { countedPage } from './page-locale.ts';
import { skipReason, type BotVerdicts } from './visit-filter.ts';
import { visitorHash, type DailySalts } from './visitor-hash.ts';

export interface VisitRouteDeps {
  recorder: VisitRecorder;
  salts: DailySalts;
  /** Counted visits per client per minute. */
  budget: VisitBudget;
  verdicts: BotVerdicts;
  publicUrl: string;
  /** Runs the work done after the answer has left (so tests and shutdown can wait for it). */
  afterReply: (work: () => Promise<void>) => void;
}

// Only our own pages, in every locale, are counted by name, so a forged beacon cannot fill "top
// pages" with junk (page-locale.ts).

function referrerHost(referrer: string | undefined, ownHost: string): string {
  if (!referrer) return '';
  try {
    const host = new URL(referrer).hostname.toLowerCase().replace(/^www\./, '');
    // Moving between our own pages is not a referral.
    return host === ownHost ? '' : host.slice(0, 253);
  } catch {
    return '';
  }
}

const clean = (v: string | undefined, max: number) => (v ?? '').replace(/[^\w\-/+.]/g, '').slice(0, max) || 'Unknown';

export function registerVisitRoutes(app: FastifyInstance, deps: VisitRouteDeps): void {
  const ownHost = new URL(deps.publicUrl).hostname.toLowerCase().replace(/^www\./, '');

  app.withTypeProvider<ZodTypeProvider>().post(
    apiPaths.visit,
    {
      bodyLimit: 4096,
      schema: { body: visitBeaconSchema },
      preValidation: app.protection.sameOrigin,
      // A beacon never waits: whatever went wrong (a bad body, another site), the page does not care.
      errorHandler: (_error, _request, reply) => {
        app.metrics.beacons.dropped('invalid');
        return reply.code(204).header('cache-control', 'no-store').send();
      },
    },
    (request, reply) => {
      const skip = skipReason(request.headers, deps.verdicts);
      reply.code(204).header('cache-control', 'no-store').send();
      if (skip) {
        app.metrics.beacons.dropped(skip);
        return reply;
      }

      // Everything from here runs after the answer has left. The address is used in memory only.
      const address = request.ip;
      const userAgent = request.headers['user-agent'] ?? '';
      const now = app.clock();
      const beacon = request.body;
      deps.afterReply(async () => {
        const day = dayOf(now);
        const salt = await deps.salts.saltFor(day);
        // The client is named by a keyed hash of its network, even in memory, so a shared budget
        // store (Redis, later) never holds an address either.
        if (!(await deps.budget.take(visitorHash(salt, clientNetwork(address), 'visit-budget'), now))) {
          deps.recorder.drops.add('visit-over-budget', day);
          return;
        }
        const place = await app.geo.lookup(address);
        deps.recorder.add({
          at: now.toISOString(),
          day,
          path: countedPage(beacon.p),
          referrer_host: referrerHost(beacon.r, ownHost),
          visitor_hash: visitorHash(salt, address, userAgent),
          ...place,
          client_timezone: clean(beacon.tz, 64),
          language: clean(beacon.l, 35),
        });
      });
      return reply;
    },
  );
}
