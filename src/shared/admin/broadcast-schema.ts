import { z } from 'zod/mini';

// A launch broadcast as the console writes and reads it (docs/decisions/0015-launch-broadcast.md).

export const broadcastLimits = { subject: 200, body: 20_000 } as const;

export const broadcastDraftSchema = z.strictObject({
  subject: z
    .string({ error: 'Write a subject.' })
    .check(
      z.trim(),
      z.minLength(1, 'Write a subject.'),
      z.maxLength(broadcastLimits.subject, `Keep the subject under ${broadcastLimits.subject} characters.`),
      z.refine((s) => !/[\r\n]/.test(s), 'The subject must be one line.'),
    ),
  body: z
    .string({ error: 'Write the message.' })
    .check(
      z.minLength(1, 'Write the message.'),
      z.maxLength(broadcastLimits.body, `Keep the message under ${broadcastLimits.body} characters.`),
      z.refine((s) => s.trim().length > 0, 'Write the message.'),
    ),
});
export type BroadcastDraft = z.output<typeof broadcastDraftSchema>;

export const broadcastIdParamsSchema = z.strictObject({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

/** 'done' is 'sending' with nothing left to send. */
export const broadcastStates = ['draft', 'sending', 'paused', 'cancelled', 'done'] as const;
export type BroadcastState = (typeof broadcastStates)[number];

export const broadcastProgressSchema = z.object({
  /** Confirmed subscribers when it was sent (0 for a draft). */
  recipients: z.number(),
  /** Waiting to be sent (paused ones included). */
  queued: z.number(),
  sent: z.number(),
  failed: z.number(),
  /** Unsubscribed (or removed) between the send and their turn: not sent, on purpose. */
  skipped: z.number(),
  /** Not sent because an operator cancelled the broadcast. */
  cancelled: z.number(),
  /** Seconds until the queue is sent at the current pace; null when nothing is moving. */
  etaSeconds: z.nullable(z.number()),
  /** The last failures, with the mail server's reason. */
  failures: z.array(z.object({ reason: z.string(), count: z.number() })),
});
export type BroadcastProgress = z.output<typeof broadcastProgressSchema>;

export const broadcastSchema = z.object({
  id: z.string(),
  subject: z.string(),
  body: z.string(),
  state: z.enum(broadcastStates),
  createdBy: z.string(),
  createdAt: z.string(),
  sentBy: z.nullable(z.string()),
  sentAt: z.nullable(z.string()),
  /** Why it may not be sent as it stands (the address guard), or null. */
  refusal: z.nullable(z.string()),
  progress: broadcastProgressSchema,
});
export type Broadcast = z.output<typeof broadcastSchema>;

export const broadcastListSchema = z.object({
  broadcasts: z.array(z.pick(broadcastSchema, { id: true, subject: true, state: true, createdAt: true, sentAt: true })),
});
export type BroadcastList = z.output<typeof broadcastListSchema>;

export const broadcastPreviewSchema = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  refusal: z.nullable(z.string()),
});
export type BroadcastPreview = z.output<typeof broadcastPreviewSchema>;

export const testSentSchema = z.object({ sentTo: z.string() });
