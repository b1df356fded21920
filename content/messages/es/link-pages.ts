// The pages our emails' links open, in Spanish: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { LinkPageMessages } from '../../../src/shared/messages/link-pages.ts';

export const linkPageMessages: LinkPageMessages = {
  brokenLink: {
    title: 'Este enlace no funciona',
    message: 'El enlace está incompleto. Usa el enlace completo de uno de nuestros correos.',
  },
  usedLink: {
    title: 'Este enlace no funciona',
    message:
      'El enlace está incompleto o ya se usó. Vuelve a suscribirte en la página de inicio para recibir uno nuevo.',
  },
  expired: {
    title: 'Este enlace ha caducado',
    message:
      'Los enlaces de confirmación funcionan durante 7 días. Vuelve a suscribirte en la página de inicio y te enviaremos uno nuevo.',
  },
  alreadyConfirmed: {
    title: 'Ya confirmado',
    message: 'Esta dirección de correo ya estaba confirmada. Estás en la lista.',
  },
  storeDown: ({ seconds }) => ({
    title: 'Vuelve a intentarlo en un minuto',
    message: `Nuestra base de datos no responde en este momento, así que no se cambió nada. Tu enlace sigue funcionando: vuelve a abrirlo dentro de ${seconds} segundos.`,
  }),
  confirmPending: {
    title: 'Confirma tu suscripción',
    message:
      'Pulsa el botón para confirmar que quieres recibir correos sobre la preventa en esta dirección. Si no te suscribiste, cierra esta página: no pasará nada.',
    button: 'Confirmar mi suscripción',
  },
  confirmed: {
    title: 'Estás en la lista',
    message: 'Tu dirección de correo está confirmada. Te avisaremos en cuanto abra la preventa.',
  },
  unsubscribeBroken: {
    title: 'Este enlace no funciona',
    message: 'El enlace para darte de baja está incompleto. Usa el enlace completo de uno de nuestros correos.',
  },
  unsubscribePending: {
    title: '¿Darte de baja de nuestros correos?',
    message:
      'Pulsa el botón para dejar de recibir todos nuestros correos en esta dirección. Puedes volver a suscribirte cuando quieras.',
    button: 'Darme de baja',
  },
  unsubscribed: {
    title: 'Te has dado de baja',
    message: 'No volveremos a escribirte. Si cambias de opinión, vuelve a suscribirte en la página de inicio.',
  },
  oneClickInvalid: 'Este enlace para darse de baja no es válido.',
  oneClickDone: 'Baja completada. No volveremos a escribirte.',
};
