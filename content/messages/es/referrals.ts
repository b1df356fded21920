// Invite links, in Spanish: a draft, not yet reviewed by a native speaker (./meta.ts). Typed by
// the English file.
import type { ReferralsMessages } from '../../../src/shared/messages/referrals.ts';

export const referralsMessages: ReferralsMessages = {
  invitedLine: 'Te ha invitado un amigo. Regístrate abajo para saber cuándo abre la preventa.',
  page: {
    title: 'Tu enlace de invitación',
    message:
      'Comparte este enlace. Cuando un amigo se registre con él y confirme su dirección de correo, cuenta para ti.',
  },
  blockHeading: 'Invita a un amigo',
  linkLabel: 'Tu enlace de invitación',
  copy: 'Copiar enlace',
  copied: 'Copiado',
  shareLabel: 'Compartir:',
  shareX: 'X (Twitter)',
  shareTelegram: 'Telegram',
  shareEmail: 'Correo',
  shareText: 'Estoy en la lista de la preventa. Únete:',
  shareSubject: 'Únete a la lista de la preventa',
  count: ({ count }) => `Amigos que se registraron y confirmaron: ${count}`,
  rewardHeading: 'Qué ganan las invitaciones',
  pageLink: 'Tu página de invitaciones',
  makeLink: {
    title: 'Tu enlace de invitación',
    message: 'Aún no tienes enlace de invitación. Pulsa el botón para crearlo.',
    button: 'Crear mi enlace de invitación',
  },
  brokenLink: {
    title: 'Este enlace no funciona',
    message:
      'El enlace está incompleto, o la persona a la que iba dirigido ya no está en la lista. Usa el enlace completo de uno de nuestros correos.',
  },
  notConfirmed: {
    title: 'Primero confirma tu registro',
    message: 'Tu enlace de invitación se crea cuando confirmas tu correo: usa el enlace del correo que te enviamos.',
  },
};
