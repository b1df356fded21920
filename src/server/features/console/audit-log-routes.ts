import type { FastifyInstance } from 'fastify';
import { auditContract } from '../../../shared/admin/contracts.ts';
import { registerContract } from '../../lib/register-contract.ts';
import { readAudit } from '../audit/index.ts';

/** The audit log, newest first, filtered by operator, action and days, a page at a time. */
export function registerAuditRoutes(api: FastifyInstance): void {
  registerContract(api, auditContract, async (request) => readAudit(api.store.db, request.query));
}
