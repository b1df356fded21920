// The broadcast email's fixed words in Simplified Chinese: a draft, not yet reviewed by a native
// speaker (./meta.ts). Typed by the English file.
import type { BroadcastEmailMessages } from '../../../src/shared/messages/emails.ts';

export const broadcastEmailMessages: BroadcastEmailMessages = {
  why: ({ site }) => `您收到此邮件，是因为您已确认订阅 ${site} 的邮件列表。`,
  stop: ({ site }) => `退订 ${site} 的所有邮件`,
};
