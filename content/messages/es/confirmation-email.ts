// The confirmation email in Spanish: a draft, not yet reviewed by a native speaker (./meta.ts).
// Typed by the English file.
import type { ConfirmationEmailMessages } from '../../../src/shared/messages/emails.ts';

export const confirmationEmailMessages: ConfirmationEmailMessages = {
  subject: ({ site }) => `Confirma tu suscripción a ${site}`,
  hello: 'Hola:',
  thanks: ({ site }) => `Gracias por unirte a la lista de ${site}. Confirma tu dirección de correo:`,
  openAndPress: 'abre este enlace y pulsa el botón de la página:',
  button: 'Confirmar mi suscripción',
  pasteLink: 'O pega este enlace en tu navegador:',
  validity:
    'El enlace funciona una sola vez y durante 7 días. Si no te suscribiste, ignora este correo: no volverás a saber de nosotros.',
  stop: ({ name }) => `Dejar de recibir correos de ${name}`,
};
