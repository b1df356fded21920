// The fixed words of a broadcast email, in English: its footer (why the reader gets it, and the
// unsubscribe link). The operator writes the rest, one version per locale; the console's own words
// (a test send's note) stay English. src/server/features/broadcast/broadcast-render.ts lays
// them out. docs/decisions/0048-broadcast-and-console-per-locale.md
import type { BroadcastEmailMessages } from '../../../src/shared/messages/emails.ts';

interface Site {
  /** "Diamond Hand (DH)" */
  site: string;
}

export const broadcastEmailMessages: BroadcastEmailMessages = {
  why: ({ site }: Site): string => `You are receiving this because you confirmed your sign-up to the ${site} list.`,
  stop: ({ site }: Site): string => `Stop all emails from ${site}`,
};
