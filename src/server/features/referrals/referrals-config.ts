import { z } from 'zod';

const perDay = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a whole number of invites per day' })
    .int('must be a whole number of invites per day')
    .min(0, 'must be 0 (no invite counts) or more')
    .max(100_000, 'must be at most 100000 a day')
    .default(fallback);

/**
 * The referrals' slice of the environment (env.ts reads it with the others, in one pass): how many
 * invites may count per UTC day, so a farm spread over many addresses or networks climbs slowly.
 * docs/decisions/0060-referral-invites.md, docs/decisions/0063
 */
export const referralsEnv = z.object({
  // Confirmed invites that count for one referrer in a UTC day; the rest are kept as 'capped'.
  REFERRALS_PER_REFERRER_DAILY: perDay(20),
  // Confirmed invites that count from one client network (IPv4 address or IPv6 /48) in a UTC day.
  REFERRALS_PER_NETWORK_DAILY: perDay(3),
  // Confirmed invites that count for one referrer, ever, at one domain that is not a large public
  // mail provider (a company's, a school's, or a farm's catch-all); the rest are 'one_domain'.
  // 5 is where the console has flagged a domain cluster from its first Referrals screen: a
  // referrer with more friends than that at one private domain is rarer than a farm with a domain
  // of its own.
  REFERRALS_PER_PRIVATE_DOMAIN: z.coerce
    .number({ error: 'must be a whole number of invites' })
    .int('must be a whole number of invites')
    .min(0, 'must be 0 (none counts at a private domain) or more')
    .max(100_000, 'must be at most 100000')
    .default(5),
});

export interface ReferralCaps {
  perReferrerDaily: number;
  perNetworkDaily: number;
  /** Counted invites per referrer at one domain that is not a large public mail provider. */
  perPrivateDomain: number;
}

export const referralCapsOf = (env: z.infer<typeof referralsEnv>): ReferralCaps => ({
  perReferrerDaily: env.REFERRALS_PER_REFERRER_DAILY,
  perNetworkDaily: env.REFERRALS_PER_NETWORK_DAILY,
  perPrivateDomain: env.REFERRALS_PER_PRIVATE_DOMAIN,
});

export const defaultReferralCaps: ReferralCaps = referralCapsOf(referralsEnv.parse({}));
