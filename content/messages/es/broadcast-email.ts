// The broadcast email's fixed words in Spanish: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { BroadcastEmailMessages } from '../../../src/shared/messages/emails.ts';

export const broadcastEmailMessages: BroadcastEmailMessages = {
  why: ({ site }) => `Recibes este correo porque confirmaste tu suscripción a la lista de ${site}.`,
  stop: ({ site }) => `Dejar de recibir correos de ${site}`,
};
