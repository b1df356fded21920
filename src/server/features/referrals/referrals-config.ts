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
 * docs/decisions/0060-referral-invites.md
 */
export const referralsEnv = z.object({
  // Confirmed invites that count for one referrer in a UTC day; the rest are kept as 'capped'.
  REFERRALS_PER_REFERRER_DAILY: perDay(20),
  // Confirmed invites that count from one client network (IPv4 address or IPv6 /64) in a UTC day.
  REFERRALS_PER_NETWORK_DAILY: perDay(3),
});

export interface ReferralCaps {
  perReferrerDaily: number;
  perNetworkDaily: number;
}

export const referralCapsOf = (env: z.infer<typeof referralsEnv>): ReferralCaps => ({
  perReferrerDaily: env.REFERRALS_PER_REFERRER_DAILY,
  perNetworkDaily: env.REFERRALS_PER_NETWORK_DAILY,
});

export const defaultReferralCaps: ReferralCaps = referralCapsOf(referralsEnv.parse({}));
