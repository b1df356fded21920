// The broadcast email's fixed words in Arabic: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { BroadcastEmailMessages } from '../../../src/shared/messages/emails.ts';

export const broadcastEmailMessages: BroadcastEmailMessages = {
  why: ({ site }) => `تصلك هذه الرسالة لأنك أكّدت اشتراكك في قائمة ${site}.`,
  stop: ({ site }) => `إيقاف جميع الرسائل من ${site}`,
};
