import { z } from 'zod';

/** The sign-ups' slice of the environment (env.ts reads it with the others, in one pass). */
export const signupsEnv = z.object({
  // A form sent sooner than this after the page was shown is a robot's (the allowlist's form too).
  SIGNUP_MIN_FILL_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds' })
    .min(0, 'must be 0–3 seconds')
    .max(3, 'must be 0–3 seconds (longer would stop fast typists)')
    .default(2),
  SIGNUP_RATE_LIMIT: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(10),
});
