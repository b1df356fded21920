import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { visitBeaconSchema, visitPath } from '../../shared/visit-schema.ts';
import type { GeoFields } from './geo/geo-fields.ts';
import type { VisitRecorder } from './visit-recorder.ts';
import { skipReason } from './visit-filter.ts';
import { dayOf, visitorHash, type DailySalts } from './visitor-hash.ts';


export interface VisitRouteDeps {
  recorder: VisitRecorder;
  salts: DailySalts;
  geo: { lookup(ip: string): Promise<GeoFields> };
  publicUrl: string;
  clock: () => Date;
  sameOrigin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  onError: (error: unknown) => void;
}

// Only our own pages are counted by name, so a forged beacon cannot fill "top pages" with junk.
const knownPaths = new Set(['/', '/privacy', '/signup', '/confirm', '/unsubscribe']);

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

export async function registerVisitRoutes(app: FastifyInstance, deps: VisitRouteDeps): Promise<void> {
  const ownHost = new URL(deps.publicUrl).hostname.toLowerCase().replace(/^www\./, '');

  app.post(
    visitPath,
    {
      bodyLimit: 4096,
      preHandler: deps.sameOrigin,
      // A beacon never waits: whatever went wrong, the visitor's page does not care.
      errorHandler: (_error, _request, reply) => reply.code(204).send(),
    },
    (request, reply) => {
      const parsed = visitBeaconSchema.safeParse(request.body);
      const skip = skipReason(request.headers);
      reply.code(204).header('cache-control', 'no-store').send();
      if (!parsed.success || skip) return reply;

      // Everything from here runs after the answer has left. The address is used in memory only.
      const address = request.ip;
      const userAgent = request.headers['user-agent'] ?? '';
      const now = deps.clock();
      const beacon = parsed.data;
      void (async () => {
        const day = dayOf(now);
        const [salt, place] = await Promise.all([deps.salts.saltFor(day), deps.geo.lookup(address)]);
        deps.recorder.add({
          at: now.toISOString(),
          day,
          path: knownPaths.has(beacon.p) ? beacon.p : '(other)',
          referrer_host: referrerHost(beacon.r, ownHost),
          visitor_hash: visitorHash(salt, address, userAgent),
          ...place,
          client_timezone: clean(beacon.tz, 64),
          language: clean(beacon.l, 35),
        });
      })().catch(deps.onError);
      return reply;
    },
  );
}
