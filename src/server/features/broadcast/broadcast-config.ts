import { z } from 'zod';

/** The broadcast's slice of the environment (env.ts reads it with the others, in one pass). */
export const broadcastEnv = z.object({
  // How many people a broadcast to the list involves (decision 0028): 2, the author and a second
  // operator who approves exactly the text that goes out; 1 only for a team of one, said aloud.
  BROADCAST_APPROVALS: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '1' || v === '2') return Number(v) as 1 | 2;
      ctx.addIssue({
        code: 'custom',
        message:
          'must be 2 (a second operator approves each broadcast: the default) or 1 (a team of one: nobody checks sends)',
      });
      return z.NEVER;
    })
    .default(2),
});
