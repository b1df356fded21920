// The privacy notice in Spanish: a draft, not yet reviewed by a native speaker (./meta.ts), and
// the English notice is the one that binds until it is. Same sections, same facts, same order as
// ../en/privacy.ts: a change there is a change here, in the same commit.
import type { PrivacyMessages } from '../../../src/shared/messages/privacy.ts';

export const privacyMessages: PrivacyMessages = {
  title: 'Aviso de privacidad',
  intro: ({ site }) =>
    `Este aviso explica qué hace el sitio web de ${site} con la información sobre ti. Es breve porque guardamos muy poco.`,
  sections: ({ name }) => [
    {
      heading: 'Cuando nos visitas',
      blocks: [
        {
          p: [
            'Nuestro servidor no escribe tu dirección IP en ninguna base de datos, registro ni archivo. Sus registros solo anotan la hora, la página solicitada, el código de respuesta y cuánto tardó, para que podamos mantener el sitio funcionando. Para frenar avalanchas de suscripciones falsas, recuerda en memoria, durante un minuto, cuántas suscripciones llegaron desde tu red; esa cifra nunca se escribe en ningún lugar.',
          ],
        },
        {
          p: [
            'La página no carga nada de ningún otro sitio web: cada fuente, imagen y script viene de nuestro propio servidor. No usamos scripts de publicidad ni de analítica de otras empresas.',
          ],
        },
      ],
    },
    {
      heading: 'Cómo contamos las visitas',
      blocks: [
        {
          p: [
            'Para saber cuántas personas vienen, desde dónde y a qué página, tu navegador nos envía un pequeño mensaje cuando una página termina de cargar: la dirección de la página, la dirección del sitio que te trajo aquí, tu zona horaria y tu idioma. No envía cookies ni lee nada guardado en tu navegador. Si tu navegador envía Global Privacy Control o Do Not Track, no envía nada y no contamos nada. Los buscadores y otros robots no se cuentan.',
          ],
        },
        { p: ['De cada visita guardamos exactamente:'] },
        {
          ul: [
            ['la hora y la página visitada;'],
            ['solo el nombre del sitio web que te envió (por ejemplo, t.co), nunca la página concreta de ese sitio;'],
            [
              'la ciudad, la región, el país, las coordenadas aproximadas de esa zona, el código postal, la zona horaria y el operador de red (como tu compañía de telefonía móvil) que nuestra propia copia de una base de datos pública de direcciones indica para la dirección de tu conexión; la dirección en sí se consulta en la memoria de nuestro servidor y nunca se guarda;',
            ],
            ['la zona horaria y el idioma de tu navegador;'],
            [
              'un código de visitante, para que una persona que nos visita dos veces en un día cuente una sola vez: una mezcla codificada de la dirección de tu conexión y el nombre de tu navegador con una clave aleatoria que cambia cada día. Borramos la clave de cada día a las 48 horas; a partir de entonces nadie, ni siquiera nosotros, puede vincular un código con una dirección.',
            ],
          ],
        },
        {
          p: [
            'Las visitas se guardan 90 días y después se borran; a partir de entonces solo se conservan los totales diarios (visitas por página, sitio, país y ciudad).',
          ],
        },
      ],
    },
    {
      heading: 'Cookies',
      blocks: [
        {
          p: [
            'Cuando la página con el formulario de suscripción termina de cargar, guardamos tres pequeñas cookies, solo para proteger ese formulario y nunca para seguirte: ',
            { code: 'XSRF-TOKEN' },
            ' y ',
            { code: '_csrf' },
            ' demuestran que una suscripción vino de nuestra propia página y no de otro sitio web, y ',
            { code: 'dh_t' },
            ' guarda cuándo se crearon, porque un formulario enviado más rápido de lo que una persona puede escribir es un robot. Duran 30 días y solo se envían a nuestro propio sitio (con https, sus nombres empiezan por ',
            { code: '__Host-' },
            '). Con JavaScript desactivado, se crean cuando pulsas Enviar por primera vez.',
          ],
        },
      ],
    },
    {
      heading: 'El formulario de suscripción',
      blocks: [
        { p: ['Si te suscribes, guardamos:'] },
        {
          ul: [
            ['tu nombre, tu dirección de correo y tu comentario, exactamente como los escribiste;'],
            [
              'cuándo te suscribiste, en qué página estaba el formulario y qué versión del texto de consentimiento que acompaña al formulario aceptaste;',
            ],
            ['si confirmaste tu dirección, y cuándo; y si te diste de baja, y cuándo;'],
            ['la ciudad, la región y el país de la conexión desde la que te suscribiste (no la dirección en sí).'],
          ],
        },
        {
          p: [
            `Primero te enviamos un correo pidiéndote que confirmes. Hasta que hagas clic en su enlace, no recibirás nada más de nosotros; a una dirección sin confirmar no se le vuelve a escribir nunca, salvo que te suscribas de nuevo, y entonces como mucho una vez cada 15 minutos. Una vez confirmada, solo te escribimos sobre ${name}: la preventa y novedades del proyecto. No vendemos ni compartimos tus datos. Nuestros correos se envían a través de nuestro proveedor de correo, que ve la dirección a la que los entrega.`,
          ],
        },
      ],
    },
    {
      heading: 'La lista de acceso a la preventa',
      blocks: [
        {
          p: [
            'Cuando la lista de acceso está abierta, puedes añadir a ella una dirección de billetera firmando un mensaje corto en tu billetera. La firma demuestra que controlas esa dirección; no cuesta nada, no envía ninguna transacción y no da permiso para mover tus fondos. Guardamos:',
          ],
        },
        {
          ul: [
            ['la dirección de la billetera (que de todos modos es pública en la blockchain) y cuándo se unió;'],
            [
              'el país de la conexión desde la que se unió (no la dirección en sí), para ver de dónde viene el interés;',
            ],
            [
              'si eliges, justo después de unirte, recibir un aviso por correo cuando abra la preventa: un vínculo entre la dirección de la billetera y tu suscripción (tu dirección de correo en sí se guarda con tu suscripción, como se explica arriba). Solo cuenta cuando pulsas el enlace de confirmación; salir de la lista, o pedir que se borre tu suscripción, lo elimina. El equipo solo ve si una dirección tiene un correo confirmado vinculado, no cuál.',
            ],
          ],
        },
        {
          p: [
            'La guardamos para que el equipo pueda incluir la lista en el contrato de la preventa (como una raíz de Merkle) y la página de la preventa pueda demostrar que una dirección está en ella; la lista, y cualquier copia congelada de ella, solo muestra direcciones. Puedes salir de la lista con otra firma en cualquier momento; una copia congelada para la venta antes de que salieras conserva tu dirección. Tu billetera solo se comunica con este sitio: esta página no contacta con ningún servicio de billeteras ni con ningún otro tercero.',
          ],
        },
      ],
    },
    {
      heading: 'Dejar de recibir correos y borrar tus datos',
      blocks: [
        {
          p: [
            'Cada correo que enviamos tiene un enlace que detiene al instante todos los correos siguientes, con un solo clic. También puedes pedirnos que te mostremos, corrijamos o borremos todo lo que tenemos sobre ti a través de nuestros canales oficiales de Telegram o Twitter.',
          ],
        },
      ],
    },
    {
      heading: 'Enlaces a otros sitios',
      blocks: [
        {
          p: [
            'Nuestros botones de Twitter y Telegram te llevan a esos servicios. Lo que ellos recopilan se rige por sus propios avisos de privacidad.',
          ],
        },
      ],
    },
    {
      heading: 'Créditos',
      blocks: [
        {
          p: [
            'Los lugares se consultan en datos GeoLite2 creados por MaxMind, disponibles en ',
            { link: 'maxmind.com', href: 'https://www.maxmind.com' },
            ', y los operadores de red, en datos de ',
            { link: 'DB-IP.com', href: 'https://db-ip.com' },
            '; ambos se guardan en nuestro propio servidor.',
          ],
        },
      ],
    },
  ],
  backLink: 'Volver a la página de inicio',
};
