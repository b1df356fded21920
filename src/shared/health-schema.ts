import { z } from 'zod/mini';

// The answers of /healthz and /readyz. Not-ready is a 503 in the one error shape (api-error.ts).
export const aliveReplySchema = z.object({ status: z.literal('alive') });
export const readyReplySchema = z.object({ status: z.literal('ready') });
