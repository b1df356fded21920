import { type Kysely, sql } from 'kysely';
import {
  refusalReasons,
  type RefusalReason,
  type ReferralLimits,
  type ReferralsReport,
  type ReferrerDetail,
  type SignupsByInvite,
  type TopReferrer,
} from '../../../shared/admin/referrals.ts';
import { maskEmail } from '../../../shared/admin/subscribers.ts';
import { addDays } from '../../lib/days.ts';
import type { Database, ReferralStatus } from '../../store/schema.ts';
import { referralClusters } from './referral-clusters.ts';

// The console's reading of invites: counts by status, the top referrers, one referrer's
// invites by day, the top N for a reward's CSV, and the Audience's sign-ups by invite. Every count
// is computed from the attributions, so an erasure (which removes them) makes it fall.

type Db = Kysely<Database>;

const isRefusal = (status: ReferralStatus): status is RefusalReason =>
  (refusalReasons as readonly string[]).includes(status);

/** 1 for each attribution (aliased `a`) in `status`, summed: a count per status in one grouped read. */
const countOf = (status: ReferralStatus) => sql<number | string>`sum(case when a.status = ${status} then 1 else 0 end)`;

const share = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);

interface StatusCounts {
  counted: number;
  pending: number;
  refused: number;
  byReason: Map<RefusalReason, number>;
}

function tally(rows: { status: ReferralStatus; n: number }[]): StatusCounts {
  const counts: StatusCounts = { counted: 0, pending: 0, refused: 0, byReason: new Map() };
  for (const { status, n } of rows) {
    if (status === 'counted') counts.counted += n;
    else if (status === 'pending') counts.pending += n;
    else if (isRefusal(status)) {
      counts.refused += n;
      counts.byReason.set(status, (counts.byReason.get(status) ?? 0) + n);
    }
  }
  return counts;
}

async function topReferrers(db: Db, top: number, opts: { countedOnly?: boolean } = {}) {
  let q = db
    .selectFrom('referral_attributions as a')
    .innerJoin('subscribers as s', 's.id', 'a.referrer_id')
    .select((eb) => [
      'a.referrer_id as id',
      's.email',
      's.status',
      countOf('counted').as('counted'),
      countOf('pending').as('pending'),
      eb.fn.countAll<number | string>().as('invites'),
    ])
    .groupBy(['a.referrer_id', 's.email', 's.status']);
  if (opts.countedOnly) q = q.having(countOf('counted'), '>', 0);
  const rows = await q
    .orderBy('counted', 'desc')
    .orderBy('pending', 'desc')
    .orderBy('a.referrer_id')
    .limit(top)
    .execute();
  return rows.map((r) => {
    const counted = Number(r.counted);
    const pending = Number(r.pending);
    return {
      id: r.id,
      email: r.email,
      status: r.status,
      counted,
      pending,
      refused: Number(r.invites) - counted - pending,
    };
  });
}

/**
 * The Referrals screen's report. `full` (a sender or owner) adds the top `top` referrers with
 * masked addresses and the clusters; without it, counts only: no person, masked or not.
 */
export async function referralsReport(
  db: Db,
  opts: { top: number; full: boolean; limits: ReferralLimits },
): Promise<ReferralsReport> {
  const byStatus = await db
    .selectFrom('referral_attributions')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
    .groupBy('status')
    .execute();
  const counts = tally(byStatus.map((r) => ({ status: r.status, n: Number(r.n) })));
  const referrers = await db
    .selectFrom('referral_attributions')
    .select((eb) => eb.fn.count<number | string>('referrer_id').distinct().as('n'))
    .executeTakeFirstOrThrow();
  const decided = counts.counted + counts.refused;
  const clusters = await referralClusters(db);
  const top: TopReferrer[] | null = opts.full
    ? (await topReferrers(db, opts.top)).map(({ id, email, counted, pending, refused }) => ({
        id,
        maskedEmail: maskEmail(email),
        counted,
        pending,
        refused,
      }))
    : null;
  return {
    limits: opts.limits,
    access: opts.full ? 'full' : 'counts',
    totals: {
      referrers: Number(referrers.n),
      invites: counts.counted + counts.pending + counts.refused,
      counted: counts.counted,
      pending: counts.pending,
      refused: counts.refused,
    },
    refusedShare: share(counts.refused, decided),
    refusals: refusalReasons.map((reason) => {
      const count = counts.byReason.get(reason) ?? 0;
      return { reason, count, share: share(count, decided) };
    }),
    clusterCounts: clusters.counts,
    topReferrers: top,
    clusters: opts.full ? clusters.listed : null,
  };
}

/** One referrer: their address, their invites' statuses and days; never who the invited are. */
export async function referrerDetail(db: Db, id: string): Promise<Omit<ReferrerDetail, 'reads'> | null> {
  const person = await db
    .selectFrom('subscribers')
    .select(['id', 'email', 'status', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!person) return null;
  const invites = await db
    .selectFrom('referral_attributions')
    .select(['created_at', 'status'])
    .where('referrer_id', '=', id)
    .orderBy('created_at')
    .execute();
  const days = new Map<string, { status: ReferralStatus; n: number }[]>();
  for (const i of invites) {
    const day = i.created_at.slice(0, 10);
    const that = days.get(day);
    if (that) that.push({ status: i.status, n: 1 });
    else days.set(day, [{ status: i.status, n: 1 }]);
  }
  const all = tally(invites.map((i) => ({ status: i.status, n: 1 })));
  return {
    id: person.id,
    email: person.email,
    maskedEmail: maskEmail(person.email),
    status: person.status,
    signedUpAt: person.created_at,
    counts: {
      counted: all.counted,
      pending: all.pending,
      refused: all.refused,
      byReason: refusalReasons.map((reason) => ({ reason, count: all.byReason.get(reason) ?? 0 })),
    },
    timeline: [...days].map(([day, rows]) => {
      const { counted, pending, refused } = tally(rows);
      return { day, counted, pending, refused };
    }),
  };
}

/** The top `top` referrers with at least one counted invite, with their addresses (a reward's list). */
export const referrersToReward = (db: Db, top: number) => topReferrers(db, top, { countedOnly: true });

/**
 * Sign-ups from `from` to `to` (UTC days, inclusive) that came with an invite and that did not,
 * and how many of each have confirmed (an unsubscribed person who confirmed first counts).
 * People erased since are gone from both.
 */
export async function signupsByInvite(db: Db, from: string, to: string): Promise<SignupsByInvite> {
  const rows = await db
    .selectFrom('subscribers as s')
    .leftJoin('referral_attributions as a', 'a.invited_id', 's.id')
    .select((eb) => [
      eb.case().when('a.invited_id', 'is', null).then(0).else(1).end().as('via_invite'),
      eb.fn.countAll<number | string>().as('signups'),
      eb.fn.count<number | string>('s.confirmed_at').as('confirmed'),
    ])
    .where('s.created_at', '>=', `${from}T00:00:00.000Z`)
    .where('s.created_at', '<', `${addDays(to, 1)}T00:00:00.000Z`)
    .groupBy('via_invite')
    .execute();
  const groupOf = (viaInvite: boolean) => {
    const r = rows.find((row) => Number(row.via_invite) === (viaInvite ? 1 : 0));
    const signups = Number(r?.signups ?? 0);
    const confirmed = Number(r?.confirmed ?? 0);
    return { signups, confirmed, conversion: share(confirmed, signups) };
  };
  return { invited: groupOf(true), direct: groupOf(false) };
}
