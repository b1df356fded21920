// The pages our emails' links open, in Brazilian Portuguese: a draft, not yet reviewed by a native
// speaker (./meta.ts). Typed by the English file.
import type { LinkPageMessages } from '../../../src/shared/messages/link-pages.ts';

export const linkPageMessages: LinkPageMessages = {
  brokenLink: {
    title: 'Este link não funciona',
    message: 'O link está incompleto. Use o link completo de um dos nossos e-mails.',
  },
  usedLink: {
    title: 'Este link não funciona',
    message: 'O link está incompleto ou já foi usado. Inscreva-se de novo na página inicial para receber um novo.',
  },
  expired: {
    title: 'Este link expirou',
    message:
      'Os links de confirmação valem por 7 dias. Inscreva-se de novo na página inicial e enviaremos um novo para você.',
  },
  alreadyConfirmed: {
    title: 'Já confirmado',
    message: 'Este endereço de e-mail já estava confirmado. Você está na lista.',
  },
  storeDown: ({ seconds }) => ({
    title: 'Tente novamente em um minuto',
    message: `Nosso banco de dados não está respondendo no momento, então nada foi alterado. Seu link continua valendo: abra-o de novo daqui a ${seconds} segundos.`,
  }),
  confirmPending: {
    title: 'Confirme sua inscrição',
    message:
      'Clique no botão para confirmar que você quer receber e-mails sobre a pré-venda neste endereço. Se você não se inscreveu, feche esta página: nada vai acontecer.',
    button: 'Confirmar minha inscrição',
  },
  confirmed: {
    title: 'Você está na lista',
    message: 'Seu endereço de e-mail está confirmado. Avisaremos você assim que a pré-venda abrir.',
  },
  unsubscribeBroken: {
    title: 'Este link não funciona',
    message: 'O link para cancelar a inscrição está incompleto. Use o link completo de um dos nossos e-mails.',
  },
  unsubscribePending: {
    title: 'Cancelar sua inscrição nos nossos e-mails?',
    message:
      'Clique no botão para parar de receber todos os nossos e-mails neste endereço. Você pode se inscrever de novo quando quiser.',
    button: 'Cancelar minha inscrição',
  },
  unsubscribed: {
    title: 'Sua inscrição foi cancelada',
    message: 'Não enviaremos mais e-mails para você. Se mudar de ideia, inscreva-se de novo na página inicial.',
  },
  oneClickInvalid: 'Este link de cancelamento de inscrição não é válido.',
  oneClickDone: 'Inscrição cancelada. Não enviaremos mais e-mails para você.',
};
