import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { auditPageSchema, auditQuerySchema } from '../../shared/admin/audit-schema.ts';
import { adminApiPaths } from '../../shared/paths.ts';
import { readAudit } from './audit.ts';
import { requireRole } from './guards.ts';

/** The audit log, newest first, filtered by operator, action and days, a page at a time. */
export function registerAuditRoutes(api: FastifyInstance): void {
  api.withTypeProvider<ZodTypeProvider>().get(
    adminApiPaths.audit,
    {
      onRequest: requireRole('sender'),
      schema: { querystring: auditQuerySchema, response: { 200: auditPageSchema, '4xx': apiErrorSchema, '5xx': apiErrorSchema } },
    },
    async (request) => readAudit(api.store.db, request.query),
  );
}
