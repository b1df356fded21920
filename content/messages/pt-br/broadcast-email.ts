// The broadcast email's fixed words in Brazilian Portuguese: a draft, not yet reviewed by a native
// speaker (./meta.ts). Typed by the English file.
import type { BroadcastEmailMessages } from '../../../src/shared/messages/emails.ts';

export const broadcastEmailMessages: BroadcastEmailMessages = {
  why: ({ site }) => `Você está recebendo este e-mail porque confirmou sua inscrição na lista de ${site}.`,
  stop: ({ site }) => `Parar de receber e-mails de ${site}`,
};
