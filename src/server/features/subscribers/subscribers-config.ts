import { z } from 'zod';

/** The subscribers' slice of the environment (env.ts reads it with the others, in one pass). */
export const subscribersEnv = z.object({
  // Personal records (a person's details, a search, a row exported) an operator reads per UTC day
  // before each further read needs an authenticator code (docs/decisions/0029).
  PERSONAL_DATA_DAILY_ALLOWANCE: z.coerce
    .number({ error: 'must be a whole number of records per operator per day' })
    .int('must be a whole number of records per operator per day')
    .min(0, 'must be 0 (every read needs a code) or more')
    .max(1_000_000, 'must be at most 1000000 records per day')
    .default(200),
});
