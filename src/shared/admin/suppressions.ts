import { z } from 'zod/mini';

// The suppression list as the console reads it (docs/decisions/0035): never an address — the list
// holds none — but the reason, where it was heard, the dates, and the person's id when known.

export const suppressionReasons = ['hard-bounce', 'complaint', 'soft-bounce-limit', 'manual'] as const;

export const suppressionEntrySchema = z.object({
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

export const suppressionListSchema = z.object({
  /** Newest first, at most 500. */
  entries: z.array(suppressionEntrySchema),
  /** Standing (not lifted) suppressions in all. */
  standing: z.number(),
});
export type SuppressionList = z.output<typeof suppressionListSchema>;

export const suppressionIdParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
