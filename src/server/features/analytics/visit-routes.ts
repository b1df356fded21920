import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiPaths } from '../../../shared/paths.ts';
import { visitBeaconSchema } from '../../../shared/visit-schema.ts';
import type { VisitIntake } from './visit-intake.ts';

// Only our own pages, in every locale, are counted by name, so a forged beacon cannot fill "top
// pages" with junk (page-locale.ts). Every beacon is answered here: an answer before Fastify
// (decision 0052) did not move a viral hour's headroom, so it went (decision 0061).

/** The beacon's own body limit: a beacon is a few hundred bytes. */
export const VISIT_BODY_LIMIT = 4096;

export function registerVisitRoutes(app: FastifyInstance, intake: VisitIntake): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    apiPaths.visit,
    {
      bodyLimit: VISIT_BODY_LIMIT,
      schema: { body: visitBeaconSchema },
      preValidation: app.protection.sameOrigin,
      // A beacon never waits: whatever went wrong (a bad body, another site), the page does not care.
      errorHandler: (_error, _request, reply) => {
        intake.refuse();
        return reply.code(204).header('cache-control', 'no-store').send();
      },
    },
    (request, reply) => {
      reply.code(204).header('cache-control', 'no-store').send();
      intake.take(request.body, request.headers, request.ip);
      return reply;
    },
  );
}
