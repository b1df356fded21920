import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiError, apiErrorSchema, messageReplySchema } from '../../shared/api-error.ts';
import { suppressionIdParamsSchema, suppressionListSchema } from '../../shared/admin/suppressions.ts';
import { adminApiPaths } from '../../shared/paths.ts';
import { audit } from './audit.ts';
import { requireRole } from './guards.ts';

const errors = { '4xx': apiErrorSchema, '5xx': apiErrorSchema };

/**
 * The suppression list (docs/decisions/0035): senders read it; an owner lifts an entry, with fresh
 * proof, audited — the address may then be mailed again (a new sign-up, a resend).
 */
export function registerSuppressionRoutes(api: FastifyInstance): void {
  const routes = api.withTypeProvider<ZodTypeProvider>();
  const db = () => api.store.db;

  routes.get(
    adminApiPaths.suppressions,
    { onRequest: requireRole('sender'), schema: { response: { 200: suppressionListSchema, ...errors } } },
    async () => {
      const rows = await db().selectFrom('suppressions').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(500).execute();
      const standing = await db()
        .selectFrom('suppressions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('lifted_at', 'is', null)
        .executeTakeFirstOrThrow();
      return {
        entries: rows.map((r) => ({
          id: r.id,
          reason: r.reason,
          source: r.source,
          detail: r.detail,
          subscriberId: r.subscriber_id,
          createdAt: r.created_at,
          liftedAt: r.lifted_at,
          liftedBy: r.lifted_by,
        })),
        standing: Number(standing.n),
      };
    },
  );

  routes.post(
    adminApiPaths.suppressionLift,
    {
      onRequest: requireRole('owner', { freshProof: true }),
      schema: { params: suppressionIdParamsSchema, response: { 200: messageReplySchema, ...errors } },
    },
    async (request, reply) => {
      const now = api.clock().toISOString();
      const operator = request.operator?.email ?? null;
      const lifted = await db()
        .updateTable('suppressions')
        .set({ lifted_at: now, lifted_by: operator })
        .where('id', '=', request.params.id)
        .where('lifted_at', 'is', null)
        .returning('reason')
        .executeTakeFirst();
      if (!lifted) return reply.code(404).send(apiError('not_found', 'There is no standing suppression with this id (it may have been lifted already).'));
      await audit(request, { action: 'suppression.lifted', subject: request.params.id, detail: lifted.reason });
      return { message: 'Lifted: this address may be mailed again.' };
    },
  );
}
