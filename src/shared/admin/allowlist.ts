import { z } from 'zod/mini';

// The presale allowlist as the console reads and acts on it (docs/decisions/0045-wallet-allowlist.md).

const allowlistEntrySchema = z.object({
  /** EIP-55. */
  address: z.string(),
  joinedAt: z.string(),
  /** From the server's own lookup at joining; never an IP address. */
  country: z.nullable(z.string()),
  /**
   * Whether its holder linked an email: 'linked' only once the email's owner pressed the
   * button of the email sent for this wallet's link (migration 0024), 'pending' while such a link is
   * asked for and unexpired, 'none' otherwise. Never the address: opening the person is the
   * Subscribers view's job.
   */
  email: z.enum(['linked', 'pending', 'none']),
  /** The presale terms' version its signed message accepted; null: it joined before any terms. */
  termsVersion: z.nullable(z.string()),
});
export type AllowlistEntry = z.output<typeof allowlistEntrySchema>;

const allowlistSnapshotSchema = z.object({
  id: z.string(),
  /** The Merkle root to put into the sale contract. */
  root: z.string(),
  entries: z.number(),
  frozenAt: z.string(),
  requestedBy: z.string(),
  /** Null when the deployment needs no second operator. */
  approvedBy: z.nullable(z.string()),
  registrationAfter: z.enum(['open', 'closed']),
  /** Only entries that accepted this terms version are in it; null: every entry is. */
  termsVersion: z.nullable(z.string()),
});
export type AllowlistSnapshot = z.output<typeof allowlistSnapshotSchema>;

const freezeRequestSchema = z.object({
  requestedBy: z.string(),
  requestedAt: z.string(),
  keepOpen: z.boolean(),
  /** Leave out the entries that accepted no terms or an older version than the live one. */
  currentTermsOnly: z.optional(z.boolean()),
});
export type FreezeRequest = z.output<typeof freezeRequestSchema>;

export const allowlistQuerySchema = z.strictObject({
  /** A piece of an address, any case. */
  search: z.optional(
    z.string().check(z.regex(/^(0x)?[0-9a-fA-F]{1,40}$/, 'must be part of an address: hexadecimal characters')),
  ),
  cursor: z.optional(z.string().check(z.maxLength(200))),
});

export const allowlistOverviewSchema = z.object({
  /** Newest first, a page at a time. */
  entries: z.array(allowlistEntrySchema),
  nextCursor: z.nullable(z.string()),
  total: z.number(),
  /** Entries on the list now, by the UTC day they joined. */
  byDay: z.array(z.object({ day: z.string(), joined: z.number() })),
  registration: z.enum(['open', 'closed']),
  freezeRequest: z.nullable(freezeRequestSchema),
  /** 2: a second operator approves a freeze (BROADCAST_APPROVALS). */
  approvalsRequired: z.number(),
  snapshots: z.array(allowlistSnapshotSchema),
  /** The presale terms' version live in this build: a change is a content change and a new build. */
  termsVersion: z.string(),
  /** Entries that accepted the live version; the rest accepted an older one or none. */
  onCurrentTerms: z.number(),
  /** Joins refused because the server's lookup placed them in a restricted country: counts only. */
  refusedByCountry: z.array(z.object({ country: z.string(), refused: z.number() })),
});
export type AllowlistOverview = z.output<typeof allowlistOverviewSchema>;

export const removeEntrySchema = z.strictObject({
  address: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be an Ethereum address')),
});

export const freezeBodySchema = z.strictObject({
  /** Keep registration open for a next round (else the freeze closes it). */
  keepOpen: z.boolean(),
  /** Leave out the entries that accepted no terms or an older version than the live one. */
  currentTermsOnly: z.optional(z.boolean()),
});

/** What a freeze request or approval did: requested (waits for a second operator) or frozen. */
export const freezeReplySchema = z.object({
  message: z.string(),
  snapshot: z.nullable(allowlistSnapshotSchema),
});
