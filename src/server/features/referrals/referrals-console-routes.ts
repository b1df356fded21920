import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { referralsContract, referrerDetailsContract, referrersCsvContract } from '../../../shared/admin/contracts.ts';
import type { ReferralLimits } from '../../../shared/admin/referrals.ts';
import { roleAllows } from '../../../shared/admin/roles.ts';
import { INVITE_IPV6_PREFIX } from '../../lib/client-network.ts';
import { csvStream, fileStamp, neutraliseFormula } from '../../lib/csv.ts';
import { registerContract } from '../../lib/register-contract.ts';
import { notFound } from '../../lib/not-found.ts';
import { audit } from '../audit/index.ts';
import { askForFreshProof, hasFreshProof, operatorOf } from '../operators/index.ts';
import { countPersonalReads, readsNote } from '../audit/index.ts';
import { referralsReport, referrerDetail, referrersToReward } from './referrals-report.ts';

const CSV_HEADERS = ['Rank', 'Email', 'Confirmed invites', 'Pending invites', 'Not counted', 'Their status'] as const;

/**
 * The Referrals screen's endpoints (issue 33). The report is every operator's, but what it holds
 * is decided here by role: a viewer's holds counts only (decision 0028: never a subscriber's
 * personal data, masked or not). Opening one referrer is a personal read, as opening a subscriber
 * is: audited and counted against the daily allowance (decision 0029). The top referrers with
 * their addresses, to reward them, need fresh proof always and are audited with the count.
 */
export function registerReferralConsoleRoutes(api: FastifyInstance, opts: { dailyAllowance: number }): void {
  const db = () => api.store.db;
  const allowance = opts.dailyAllowance;

  const reads = (request: FastifyRequest, n: number, freshProof: boolean) =>
    countPersonalReads(db(), { operatorId: operatorOf(request).id, now: api.clock(), n, allowance, freshProof });

  // The report states the limits in force beside what they refused (docs/decisions/0063); read
  // at the request, from the referrals feature the app registers before the console.
  const limits = (): ReferralLimits => ({ ...api.referrals.caps, ipv6Prefix: INVITE_IPV6_PREFIX });
  registerContract(api, referralsContract, async (request) =>
    referralsReport(db(), {
      top: request.query.top,
      full: roleAllows(operatorOf(request).role, 'sender'),
      limits: limits(),
    }),
  );

  // A POST, not a GET: reading one person's address is an audited act.
  registerContract(api, referrerDetailsContract, async (request, reply: FastifyReply) => {
    const { id } = request.params;
    const referrer = await referrerDetail(db(), id);
    if (!referrer) {
      return notFound(reply, 'There is no such referrer (they may have been erased).');
    }
    const counted = await reads(request, 1, hasFreshProof(request));
    if (!counted) return askForFreshProof(reply);
    await audit(request, { action: 'referrer.viewed', subject: id, detail: readsNote(counted, allowance) });
    return { ...referrer, reads: { today: counted.records, allowance } };
  });

  // Bounded (at most the schema's top), so read whole, counted and audited before a byte is sent.
  registerContract(api, referrersCsvContract, async (request, reply) => {
    const { top } = request.body;
    const now = api.clock();
    const rows = await referrersToReward(db(), top);
    const counted = await reads(request, rows.length, true);
    await audit(request, {
      action: 'referrers.exported',
      detail: `CSV; top ${top} asked, ${rows.length} rows${counted ? `; ${readsNote(counted, allowance)}` : ''}`,
    });
    const cells = rows.map((r, i) => [
      String(i + 1),
      neutraliseFormula(r.email),
      String(r.counted),
      String(r.pending),
      String(r.refused),
      r.status,
    ]);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="referrers-${fileStamp(now)}.csv"`)
      .send(csvStream(CSV_HEADERS, cells));
  });
}
