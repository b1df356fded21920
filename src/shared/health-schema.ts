import { z } from 'zod/mini';

// The answers of /healthz and /readyz. Not-ready is a 503 in the one error shape (api-error.ts).
export const aliveReplySchema = z.object({ status: z.literal('alive') });
// Ready means the store answers. Redis (when REDIS_URL is set) is reported, not required: while it
// is out of reach each instance limits on its own and keeps serving, and a balancer that drained
// every instance over it would turn a degraded limit into an outage (decision 0017).
export const readyReplySchema = z.object({
  status: z.literal('ready'),
  /** Only when REDIS_URL is set: whether limits are shared right now. */
  redis: z.optional(z.enum(['answering', 'unreachable'])),
  /** A sentence for a person reading the answer, when something is degraded. */
  note: z.optional(z.string()),
});
