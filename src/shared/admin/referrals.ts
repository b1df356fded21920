import { z } from 'zod/mini';

// The operators' console, Referrals screen: who brings friends, which invites did not
// count and why, and the clusters a farm leaves. Shared by the console and the server's routes.
// What an operator reads depends on their role, and the server decides it: a viewer gets counts
// only (no address, masked or not, and no per-referrer row); a sender or owner gets the list.

/** Why an invite did not count (an attribution's status, besides 'pending' and 'counted'). */
export const refusalReasons = ['same_network', 'same_mailbox', 'disposable', 'one_domain', 'capped'] as const;
export type RefusalReason = (typeof refusalReasons)[number];

/** The console's words for each reason (English, as the console is). */
export const refusalReasonLabels: Record<RefusalReason, string> = {
  same_network: 'Same network as the referrer',
  same_mailbox: 'The referrer’s own mailbox, or one that counted for them already',
  disposable: 'Disposable address',
  one_domain: 'Too many at one private domain',
  capped: 'Over the daily cap',
};

/**
 * The rules an invite must pass, with the limits in force (the server's configuration): stated in
 * the console so an operator reads what counts without opening the code (docs/decisions/0063).
 */
export const referralLimitsSchema = z.object({
  /** Invites that count for one referrer per UTC day. */
  perReferrerDaily: z.number(),
  /** Invites that count from one client network per UTC day, whoever invited them. */
  perNetworkDaily: z.number(),
  /** Invites that count for one referrer, ever, at one domain that is not a large public provider. */
  perPrivateDomain: z.number(),
  /** The IPv6 prefix one network is (an IPv4 network is one address). */
  ipv6Prefix: z.number(),
});
export type ReferralLimits = z.output<typeof referralLimitsSchema>;

/**
 * What makes a cluster worth a look. A farm shows as many sign-ups from one network, many
 * addresses at one domain for one referrer, or invites arriving faster than people type.
 */
export const clusterThresholds = {
  /** Invites (to anyone) from one client network. */
  networkInvites: 5,
  /** Invites to one referrer from addresses at one domain. */
  domainInvites: 5,
  /** Invites to one referrer within `burstSeconds`. */
  burstInvites: 5,
  burstSeconds: 60,
} as const;

export const clusterKinds = ['network', 'domain', 'burst'] as const;
export type ClusterKind = (typeof clusterKinds)[number];

export const clusterKindLabels: Record<ClusterKind, string> = {
  network: `${clusterThresholds.networkInvites}+ invites from one network`,
  domain: `${clusterThresholds.domainInvites}+ invites to one referrer from one domain`,
  burst: `${clusterThresholds.burstInvites}+ invites to one referrer within ${clusterThresholds.burstSeconds} seconds`,
};

const REFERRAL_LIMITS = { top: 100, defaultTop: 20, exportTop: 1000 } as const;

const wholeNumber = (what: string, max: number) =>
  z.coerce.number({ error: `${what} must be a number.` }).check(
    z.refine((n) => Number.isInteger(n), `${what} must be a whole number.`),
    z.minimum(1, `${what} must be at least 1.`),
    z.maximum(max, `${what} can be at most ${max}.`),
  );

/** `GET` the report: how many top referrers to list (senders and owners). */
export const referralsQuerySchema = z.strictObject({
  top: z._default(wholeNumber('The number of referrers', REFERRAL_LIMITS.top), REFERRAL_LIMITS.defaultTop),
});
export type ReferralsQuery = z.output<typeof referralsQuerySchema>;

const statusCountsSchema = z.object({
  /** Invited people who confirmed, and counted. */
  counted: z.number(),
  /** Invited people who have not confirmed yet. */
  pending: z.number(),
  /** Invites that did not count, whatever the reason. */
  refused: z.number(),
});

const refusalSchema = z.object({
  reason: z.enum(refusalReasons),
  count: z.number(),
  /** Of every decided invite (counted or refused), 0 to 1. */
  share: z.number(),
});

const clusterSchema = z.object({
  kind: z.enum(clusterKinds),
  /**
   * What the invites share: a short opaque label for a network (never an address, and not the
   * stored key itself), the domain, or the referrer's masked address for a burst.
   */
  label: z.string(),
  invites: z.number(),
  /** Distinct referrers the cluster's invites went to. */
  referrers: z.number(),
  /** Of those invites, how many counted. */
  counted: z.number(),
  /** The referrer to open (a domain or a burst is about one referrer; a network is not). */
  referrerId: z.nullable(z.string()),
  first: z.string(),
  last: z.string(),
});
export type ReferralCluster = z.output<typeof clusterSchema>;

const topReferrerSchema = z.object({
  id: z.string(),
  /** `a•••@example.com` (maskEmail): the address is read one referrer at a time, audited. */
  maskedEmail: z.string(),
  ...statusCountsSchema.shape,
});
export type TopReferrer = z.output<typeof topReferrerSchema>;

export const referralsReportSchema = z.object({
  /** 'counts' for a viewer: totals, reasons and how many clusters, never a person. */
  access: z.enum(['counts', 'full']),
  totals: z.object({
    /** People whose link brought at least one sign-up. */
    referrers: z.number(),
    invites: z.number(),
    ...statusCountsSchema.shape,
  }),
  /** Of every decided invite, the share that did not count (0 to 1). */
  refusedShare: z.number(),
  refusals: z.array(refusalSchema),
  clusterCounts: z.object({ network: z.number(), domain: z.number(), burst: z.number() }),
  /** Null for a viewer. Most counted first, then most pending. */
  topReferrers: z.nullable(z.array(topReferrerSchema)),
  /** Null for a viewer. Largest first. */
  clusters: z.nullable(z.array(clusterSchema)),
  /** What an invite must pass to count, with the limits in force. */
  limits: referralLimitsSchema,
});
export type ReferralsReport = z.output<typeof referralsReportSchema>;

export const referrerIdParamsSchema = z.strictObject({
  id: z.string().check(z.minLength(1, 'Name a referrer.'), z.maxLength(64, 'That is not a referrer’s id.')),
});

/** One referrer, opened on purpose (audited, counted as a personal read): never who they invited. */
export const referrerDetailSchema = z.object({
  id: z.string(),
  email: z.string(),
  maskedEmail: z.string(),
  /** Their own subscription's status. */
  status: z.enum(['pending', 'confirmed', 'unsubscribed']),
  signedUpAt: z.string(),
  counts: z.object({
    ...statusCountsSchema.shape,
    byReason: z.array(z.object({ reason: z.enum(refusalReasons), count: z.number() })),
  }),
  /** Invites by UTC day of sign-up, oldest first: counts only, never the invited people. */
  timeline: z.array(z.object({ day: z.string(), ...statusCountsSchema.shape })),
  reads: z.object({ today: z.number(), allowance: z.number() }),
});
export type ReferrerDetail = z.output<typeof referrerDetailSchema>;

/** `POST` the top referrers with their addresses, as CSV (fresh proof, audited with the count). */
export const referrersCsvRequestSchema = z.strictObject({
  top: wholeNumber('The number of referrers to export', REFERRAL_LIMITS.exportTop),
});
export type ReferrersCsvRequest = z.output<typeof referrersCsvRequestSchema>;

/** Sign-ups of a period with an invite and without, and how many of each confirmed (Audience). */
const inviteGroupSchema = z.object({
  signups: z.number(),
  confirmed: z.number(),
  /** Confirmed per sign-up, 0 to 1 (0 without sign-ups). */
  conversion: z.number(),
});
export const signupsByInviteSchema = z.object({ invited: inviteGroupSchema, direct: inviteGroupSchema });
export type SignupsByInvite = z.output<typeof signupsByInviteSchema>;
