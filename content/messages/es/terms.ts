// Los términos de la preventa, en español (borrador: la página los muestra en inglés hasta que un
// hablante nativo los revise; meta.ts).
import type { TermsPage } from '../../../src/shared/content-schema.ts';

export const terms: TermsPage = {
  title: 'Términos de la preventa',
  sections: [
    {
      heading: 'Qué es la lista de acceso',
      paragraphs: [
        'Unirte a la lista de acceso pone la dirección de tu billetera en una lista de personas que quieren participar en la preventa. Es gratis, no es una compra y no te da tokens, dinero ni derecho a comprar una cantidad determinada.',
        'Te unes firmando un mensaje en tu billetera. Firmar no envía ninguna transacción ni da permiso para mover tus fondos. Puedes salir de la lista cuando quieras, desde cualquier lugar, firmando un mensaje para salir.',
      ],
    },
    {
      heading: 'Quién puede unirse',
      paragraphs: [
        'Solo puedes unirte si participar en una preventa de tokens es legal donde vives, y si no resides en ninguno de los países excluidos que se nombran abajo.',
        'El mensaje que firmas para unirte dice que aceptas estos términos, en la versión indicada abajo, y que no resides en esos países. Guardamos ese mensaje firmado como tu declaración.',
      ],
    },
    {
      heading: 'Riesgos',
      paragraphs: [
        'Los criptoactivos son volátiles y puedes perder todo lo que pongas. Nada en este sitio es asesoramiento financiero, legal ni fiscal.',
      ],
    },
    {
      heading: 'Cambios',
      paragraphs: [
        'Si estos términos cambian, tendrán una nueva versión. Tu inscripción conserva la versión que aceptaste; el equipo puede pedirte que firmes de nuevo para aceptar una más reciente.',
      ],
    },
  ],
};
