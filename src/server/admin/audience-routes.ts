import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { audienceQuerySchema, audienceReportSchema, liveVisitorsSchema } from '../../shared/admin/audience.ts';
import { adminApiPaths } from '../../shared/paths.ts';
import { audienceOverview, liveVisitors } from '../analytics/queries.ts';
import { requireRole } from './guards.ts';

const errors = { '4xx': apiErrorSchema, '5xx': apiErrorSchema };

/** The Audience screen: the report for a period (beside the one before), and the last 30 minutes. */
export function registerAudienceRoutes(api: FastifyInstance): void {
  const app = api.withTypeProvider<ZodTypeProvider>();
  app.get(
    adminApiPaths.audience,
    { onRequest: requireRole('viewer'), schema: { querystring: audienceQuerySchema, response: { 200: audienceReportSchema, ...errors } } },
    async (request) => audienceOverview(api.store.db, request.query, api.clock()),
  );
  app.get(
    adminApiPaths.audienceLive,
    // Only ever polled by the Audience view: it never keeps a session alive (decision 0029).
    { onRequest: requireRole('viewer'), config: { renewsSession: false }, schema: { response: { 200: liveVisitorsSchema, ...errors } } },
    async () => liveVisitors(api.store.db, api.clock()),
  );
}
