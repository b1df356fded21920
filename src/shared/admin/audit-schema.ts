import { z } from 'zod/mini';

// The audit log as the console reads it: who did what, and when. The log is append-only
// (docs/decisions/0013-operators-and-sign-in.md).

/**
 * Every action the log records. Add yours here (e.g. 'subscribers.exported', 'subscriber.erased',
 * 'broadcast.created', 'broadcast.sent', 'broadcast.paused', 'broadcast.cancelled'): the console's
 * filter lists these, with their labels.
 */
export const auditActions = {
  'sign-in.succeeded': 'Signed in',
  'sign-in.failed': 'Sign-in failed',
  'sign-out': 'Signed out',
  'session.ended': 'Ended a session',
  'sessions.ended-all': 'Signed out everywhere',
  'fresh-proof.given': 'Confirmed with a code or passkey',
  'fresh-proof.failed': 'Code confirmation failed',
  'operator.added': 'Operator added',
  'operator.removed': 'Operator removed',
  'operator.password-changed': 'Password changed',
  'operator.2fa-reset': 'Authenticator reset',
  'operator.role-changed': 'Role changed',
  // Passkeys: the subject is the operator, the detail the passkey's name (and what it was used for).
  'passkey.added': 'Passkey added',
  'passkey.renamed': 'Passkey renamed',
  'passkey.removed': 'Passkey removed',
  'passkey.used': 'Passkey used',
  'broadcast.created': 'Broadcast created',
  // Edits, approvals and sends name the text by its SHA-256, never by the text itself.
  'broadcast.edited': 'Broadcast edited',
  'broadcast.approved': 'Broadcast approved',
  'broadcast.approval-revoked': 'Broadcast approval revoked',
  'broadcast.test-sent': 'Broadcast test sent',
  'broadcast.sent': 'Broadcast sent (approved)',
  'broadcast.sent-unapproved': 'Broadcast sent without approval',
  'broadcast.paused': 'Broadcast paused',
  // Over an automatic pause, the detail says the operator overrode it, and quotes its reason.
  'broadcast.resumed': 'Broadcast resumed',
  // Its own bounce or complaint rate passed a threshold; the detail names the rate and the sample.
  'broadcast.auto-paused': 'Broadcast paused automatically',
  'broadcast.cancelled': 'Broadcast cancelled',
  // Subscribers screen: the subject is the person's id, never their address.
  'subscriber.confirmation-resent': 'Confirmation resent',
  'subscriber.exported': 'Person’s data exported',
  'subscriber.erased': 'Person erased',
  'subscribers.exported': 'Subscribers exported (CSV)',
  // Personal data read on purpose (decision 0029): the detail says the day's count.
  'subscriber.viewed': 'Person’s details viewed',
  'subscribers.export-counted': 'Subscribers export finished (rows counted)',
  'sign-in.alert': 'Many failed sign-ins for one address',
  // Too many wrong authenticator codes for one operator from any network: their codes are held for
  // a while (passkeys and recovery codes still work). The subject is the operator.
  'sign-in.codes-held': 'Authenticator codes held after many wrong codes',
  // Suppression list: the subject is the entry's id, the detail its reason.
  'suppression.lifted': 'Suppression lifted',
  // The detail says how many entries the file held (none names an address).
  'suppressions.exported': 'Suppression list exported (CSV)',
  // The presale allowlist (decision 0045): the subject is the wallet address or the snapshot's id.
  'allowlist.entry-removed': 'Allowlist entry removed',
  'allowlist.exported': 'Allowlist exported (CSV)',
  'allowlist.freeze-requested': 'Allowlist freeze requested',
  'allowlist.frozen': 'Allowlist snapshot frozen',
  'allowlist.frozen-unapproved': 'Allowlist snapshot frozen without a second operator',
  'allowlist.reopened': 'Allowlist registration reopened',
  // Invite links: the subject is the referrer's id; the export's detail says how many
  // were asked for and how many rows the file held.
  'referrer.viewed': 'Referrer’s details viewed',
  'referrers.exported': 'Top referrers exported (CSV)',
} as const;
export type AuditAction = keyof typeof auditActions;

const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** The operator who acted; null when nobody was signed in (a failed sign-in) or from the command line. */
  actor: z.nullable(z.string()),
  /**
   * 'console' (a signed-in operator), 'command-line' (npm run operator), 'anonymous' (sign-in
   * attempts), 'system' (the application on its own: a broadcast's automatic pause).
   */
  via: z.enum(['console', 'command-line', 'anonymous', 'system']),
  action: z.string(),
  /** What was acted on, e.g. the operator a sign-in was for; null when there is nothing to name. */
  subject: z.nullable(z.string()),
  /** A short note in words, e.g. "wrong password" or "Firefox on Windows". */
  detail: z.nullable(z.string()),
});
export type AuditEntry = z.output<typeof auditEntrySchema>;

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-22.'));

export const auditQuerySchema = z.strictObject({
  /** An operator's email. */
  actor: z.optional(z.string().check(z.maxLength(254))),
  action: z.optional(z.string().check(z.maxLength(64))),
  /** First and last day to show (UTC), inclusive. */
  from: z.optional(day),
  to: z.optional(day),
  /** From the previous page's reply. */
  cursor: z.optional(z.string().check(z.maxLength(200))),
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200))),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.nullable(z.string()),
  /** Today's operators, for the filter. */
  actors: z.array(z.string()),
});
export type AuditPage = z.output<typeof auditPageSchema>;
