import { z } from 'zod/mini';

// The operator's own sessions, as the console lists them: the browser and system they were
// opened from (read from the user agent when signing in), never an address.

const sessionEntrySchema = z.object({
  /** A public id for ending this session (not the cookie's value, nor its hash). */
  id: z.string(),
  /** e.g. "Chrome on Linux". */
  browser: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionEntry = z.output<typeof sessionEntrySchema>;

export const sessionsReplySchema = z.object({ sessions: z.array(sessionEntrySchema) });
export type SessionsReply = z.output<typeof sessionsReplySchema>;

export const endSessionSchema = z.strictObject({
  id: z.string({ error: 'Say which session to end.' }).check(z.minLength(1), z.maxLength(64)),
});

export const endedReplySchema = z.object({ ended: z.number(), signedOut: z.boolean() });
