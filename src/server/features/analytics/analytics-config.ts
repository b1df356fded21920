import { z } from 'zod';

/** The analytics' slice of the environment (env.ts reads it with the others, in one pass). */
export const analyticsEnv = z.object({
  VISIT_RETENTION_DAYS: z.coerce
    .number({ error: 'must be a number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1 day')
    .max(3650, 'must be at most 3650 days')
    .default(90),
  VISIT_RATE_LIMIT: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000')
    .default(10),
});
