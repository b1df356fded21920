import { z } from 'zod/mini';

// The suppression list as the console reads it (docs/decisions/0035): never an address — the list
// holds none — but the reason, where it was heard, the dates, and the person's id when known.

export const suppressionReasons = [
  'hard-bounce',
  'complaint',
  'soft-bounce-limit',
  'manual',
  'policy-refusals',
] as const;

const suppressionEntrySchema = z.object({
  id: z.string(),
  reason: z.enum(suppressionReasons),
  source: z.string(),
  detail: z.nullable(z.string()),
  subscriberId: z.nullable(z.string()),
  createdAt: z.string(),
  liftedAt: z.nullable(z.string()),
  liftedBy: z.nullable(z.string()),
});
export type SuppressionEntry = z.output<typeof suppressionEntrySchema>;

/**
 * How the console reads the reasons: English, as the console is (decision 0048). The other
 * locales' words are content/messages/<locale>/suppression-reasons.ts, typed by these.
 */
export const suppressionReasonLabels: Record<(typeof suppressionReasons)[number], string> = {
  'hard-bounce': 'The address does not exist (hard bounce)',
  complaint: 'Marked as spam (complaint)',
  'soft-bounce-limit': 'Kept bouncing (3 soft bounces in 7 days)',
  manual: 'Added by hand',
  // A receiver's policy or content filter (5.7.x) refused three of our emails over 14 days or more.
  'policy-refusals': 'Refused by the receiver’s filter (3 emails over 14 days or more)',
};

export const suppressionListQuerySchema = z.strictObject({
  /** From the previous page's reply. */
  cursor: z.optional(z.string().check(z.maxLength(200))),
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200))),
});
export type SuppressionListQuery = z.output<typeof suppressionListQuerySchema>;

export const suppressionListSchema = z.object({
  /** Newest first, a page at a time. */
  entries: z.array(suppressionEntrySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.nullable(z.string()),
  /** Standing (not lifted) suppressions in all. */
  standing: z.number(),
});
export type SuppressionList = z.output<typeof suppressionListSchema>;

export const suppressionIdParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
