// The confirmation email in Brazilian Portuguese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { ConfirmationEmailMessages } from '../../../src/shared/messages/emails.ts';

export const confirmationEmailMessages: ConfirmationEmailMessages = {
  subject: ({ site }) => `Confirme sua inscrição em ${site}`,
  hello: 'Olá,',
  thanks: ({ site }) => `Obrigado por entrar na lista de ${site}. Confirme seu endereço de e-mail:`,
  openAndPress: 'abra este link e clique no botão da página:',
  button: 'Confirmar minha inscrição',
  pasteLink: 'Ou cole este link no seu navegador:',
  validity:
    'O link funciona uma única vez e vale por 7 dias. Se você não se inscreveu, ignore este e-mail: você não receberá mais nada de nós.',
  stop: ({ name }) => `Parar de receber e-mails de ${name}`,
};
