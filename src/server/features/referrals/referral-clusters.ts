import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import {
  type ClusterKind,
  clusterThresholds as limits,
  type ReferralCluster,
} from '../../../shared/admin/referrals.ts';
import { maskEmail } from '../../../shared/admin/subscribers.ts';
import type { Database } from '../../store/schema.ts';
import { siteOf } from './invite-domains.ts';

// What a farm leaves in the attributions, flagged for a person to look at (never acted on here):
// many invites from one client network, many addresses at one domain for one referrer, or a burst
// of invites to one referrer faster than people sign up. The thresholds are clusterThresholds.

/** The most clusters the report lists (largest first); the counts count them all. */
const LISTED = 50;

const counted = sql<number | string>`sum(case when status = 'counted' then 1 else 0 end)`;

/**
 * A network's label: a few hex digits of a hash of its stored key. Enough to tell clusters apart
 * and to see one again tomorrow; not the key itself, so it matches nothing else the app stores.
 */
export const networkLabel = (networkKey: string): string =>
  `net-${createHash('sha256').update(networkKey).digest('hex').slice(0, 8)}`;

async function networkClusters(db: Kysely<Database>): Promise<ReferralCluster[]> {
  const rows = await db
    .selectFrom('referral_attributions')
    .select((eb) => [
      'network_key',
      eb.fn.countAll<number | string>().as('invites'),
      eb.fn.count<number | string>('referrer_id').distinct().as('referrers'),
      counted.as('counted'),
      eb.fn.min('created_at').as('first'),
      eb.fn.max('created_at').as('last'),
    ])
    .where('network_key', 'is not', null)
    .groupBy('network_key')
    .having((eb) => eb.fn.countAll(), '>=', limits.networkInvites)
    .execute();
  return rows.map((r) => ({
    kind: 'network',
    label: networkLabel(r.network_key ?? ''),
    invites: Number(r.invites),
    referrers: Number(r.referrers),
    counted: Number(r.counted),
    referrerId: null,
    first: r.first,
    last: r.last,
  }));
}

/**
 * Per referrer, invites at one registered domain (siteOf: a catch-all's subdomains are one
 * domain, as the one-domain rule reads them), flagged from domainInvites up. Grouped in the store
 * by exact domain, then joined by registered domain here.
 */
async function domainClusters(db: Kysely<Database>): Promise<ReferralCluster[]> {
  const rows = await db
    .selectFrom('referral_attributions')
    .select((eb) => [
      'referrer_id',
      'invited_domain',
      eb.fn.countAll<number | string>().as('invites'),
      counted.as('counted'),
      eb.fn.min('created_at').as('first'),
      eb.fn.max('created_at').as('last'),
    ])
    .where('invited_domain', 'is not', null)
    .groupBy(['referrer_id', 'invited_domain'])
    .execute();
  const bySite = new Map<string, ReferralCluster>();
  for (const r of rows) {
    const site = siteOf(r.invited_domain ?? '');
    const key = `${r.referrer_id} ${site}`;
    const seen = bySite.get(key);
    const [invites, countedHere] = [Number(r.invites), Number(r.counted)];
    if (seen) {
      seen.invites += invites;
      seen.counted += countedHere;
      if (r.first < seen.first) seen.first = r.first;
      if (r.last > seen.last) seen.last = r.last;
    } else
      bySite.set(key, {
        kind: 'domain',
        label: site,
        invites,
        referrers: 1,
        counted: countedHere,
        referrerId: r.referrer_id,
        first: r.first,
        last: r.last,
      });
  }
  return [...bySite.values()].filter((c) => c.invites >= limits.domainInvites);
}

/**
 * Per referrer with enough invites, the densest run within burstSeconds (a sliding window over
 * their invites in time order); flagged when it holds burstInvites or more.
 */
async function burstClusters(db: Kysely<Database>): Promise<ReferralCluster[]> {
  const rows = await db
    .selectFrom('referral_attributions as a')
    .innerJoin('subscribers as s', 's.id', 'a.referrer_id')
    .select(['a.referrer_id', 's.email', 'a.created_at', 'a.status'])
    .where('a.referrer_id', 'in', (qb) =>
      qb
        .selectFrom('referral_attributions')
        .select('referrer_id')
        .groupBy('referrer_id')
        .having((eb) => eb.fn.countAll(), '>=', limits.burstInvites),
    )
    .orderBy('a.referrer_id')
    .orderBy('a.created_at')
    .execute();
  const byReferrer = new Map<string, typeof rows>();
  for (const r of rows) {
    const theirs = byReferrer.get(r.referrer_id);
    if (theirs) theirs.push(r);
    else byReferrer.set(r.referrer_id, [r]);
  }
  const clusters: ReferralCluster[] = [];
  const windowMs = limits.burstSeconds * 1000;
  for (const [referrerId, invites] of byReferrer) {
    const times = invites.map((i) => Date.parse(i.created_at));
    let best = { start: 0, end: 0 };
    for (let start = 0, end = 0; end < times.length; end++) {
      while ((times[end] ?? 0) - (times[start] ?? 0) > windowMs) start++;
      if (end - start > best.end - best.start) best = { start, end };
    }
    const run = invites.slice(best.start, best.end + 1);
    const [first, last] = [run[0], run.at(-1)];
    if (run.length < limits.burstInvites || !first || !last) continue;
    clusters.push({
      kind: 'burst',
      label: maskEmail(first.email),
      invites: run.length,
      referrers: 1,
      counted: run.filter((i) => i.status === 'counted').length,
      referrerId,
      first: first.created_at,
      last: last.created_at,
    });
  }
  return clusters;
}

/**
 * How many clusters of each kind are flagged, and the largest LISTED of them (ties: the most
 * recent first).
 */
export async function referralClusters(
  db: Kysely<Database>,
): Promise<{ counts: Record<ClusterKind, number>; listed: ReferralCluster[] }> {
  const all = [...(await networkClusters(db)), ...(await domainClusters(db)), ...(await burstClusters(db))];
  const counts: Record<ClusterKind, number> = { network: 0, domain: 0, burst: 0 };
  for (const c of all) counts[c.kind]++;
  all.sort((x, y) => y.invites - x.invites || y.last.localeCompare(x.last));
  return { counts, listed: all.slice(0, LISTED) };
}
