import type { FastifyInstance } from 'fastify';
import { audienceContract, audienceLiveContract } from '../../../shared/admin/contracts.ts';
import { audienceOverview, liveVisitors } from './audience-overview.ts';
import { registerContract } from '../../lib/register-contract.ts';

/** The Audience screen: the report for a period (beside the one before), and the last 30 minutes. */
export function registerAudienceRoutes(api: FastifyInstance): void {
  registerContract(api, audienceContract, async (request) =>
    audienceOverview(api.store.db, request.query, api.clock()),
  );
  // Only ever polled by the Audience view: it never keeps a session alive (decision 0029).
  registerContract(api, audienceLiveContract, { config: { renewsSession: false } }, async () =>
    liveVisitors(api.store.db, api.clock()),
  );
}
