import { z } from 'zod/mini';

/** What a mail provider's webhook gets back once its events are stored (docs/decisions/0035). */
export const webhookReplySchema = z.object({
  message: z.string(),
  /** Bounce and complaint events in the delivery. */
  received: z.number(),
  /** Of those, the ones not heard before (the rest were duplicates). */
  counted: z.number(),
});
