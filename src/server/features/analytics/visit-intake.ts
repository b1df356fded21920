import type { IncomingHttpHeaders } from 'node:http';
import type { VisitBeacon } from '../../../shared/visit-schema.ts';
import type { GeoLookup } from '../../geo/geo-lookup.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { dayOf } from '../../lib/days.ts';
import type { BeaconMetrics } from './beacon-metrics.ts';
import { countedPage } from './page-locale.ts';
import type { VisitBudget } from './visit-budget.ts';
import { skipReason, type BotVerdicts } from './visit-filter.ts';
import type { VisitRecorder } from './visit-recorder.ts';
import { visitorHash, type DailySalts } from './visitor-hash.ts';

// What a beacon does once it is answered: the route answers 204 first, then hands it here to be
// filtered, budgeted, placed and counted.

export interface VisitIntakeDeps {
  recorder: VisitRecorder;
  salts: DailySalts;
  /** Counted visits per client per minute. */
  budget: VisitBudget;
  verdicts: BotVerdicts;
  geo: GeoLookup;
  metrics: BeaconMetrics;
  clock: () => Date;
  publicUrl: string;
  /** Runs the work done after the answer has left (so tests and shutdown can wait for it). */
  afterReply: (work: () => Promise<void>) => void;
}

export interface VisitIntake {
  /** A beacon from our own pages that its schema accepts: counted, unless it must not be. */
  take(beacon: VisitBeacon, headers: IncomingHttpHeaders, address: string): void;
  /** One that is unreadable or from another site: answered all the same, and counted as dropped. */
  refuse(): void;
}

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

export function visitIntake(deps: VisitIntakeDeps): VisitIntake {
  const ownHost = new URL(deps.publicUrl).hostname.toLowerCase().replace(/^www\./, '');
  return {
    take(beacon, headers, address) {
      const skip = skipReason(headers, deps.verdicts);
      if (skip) {
        deps.metrics.dropped(skip);
        return;
      }
      // Everything from here runs after the answer has left. The address is used in memory only.
      const userAgent = headers['user-agent'] ?? '';
      const now = deps.clock();
      deps.afterReply(async () => {
        const day = dayOf(now);
        const salt = await deps.salts.saltFor(day);
        // The client is named by a keyed hash of its network, even in memory, so a shared budget
        // store (Redis) never holds an address either.
        if (!(await deps.budget.take(visitorHash(salt, clientNetwork(address), 'visit-budget'), now))) {
          deps.recorder.drops.add('visit-over-budget', day);
          return;
        }
        const place = await deps.geo.lookup(address);
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
    },
    refuse() {
      deps.metrics.dropped('invalid');
    },
  };
}
