// Vincular una billetera a un correo, in Spanish: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { WalletLinkMessages } from '../../../src/shared/messages/emails.ts';

export const walletLinkMessages: WalletLinkMessages = {
  email: {
    subject: ({ site, wallet }) => `${site}: ¿vincular la billetera ${wallet} a este correo?`,
    hello: 'Hola:',
    asked: ({ site }) =>
      `Alguien pidió vincular esta billetera a esta dirección de correo en la lista de acceso a la preventa de ${site}:`,
    check:
      'Comprueba la dirección entera con la de tu billetera, carácter por carácter: otra persona puede crear una billetera cuya dirección empiece y termine como la tuya.',
    meaning:
      'Vincularla le dice al equipo que esta dirección pertenece a quien tiene esa billetera, para que podamos escribirte aquí sobre su lugar en la lista. Una dirección se vincula como mucho a una billetera: vincular esta reemplaza a la que estuviera vinculada antes. Vincularla no mueve fondos ni da a nadie acceso a tu billetera.',
    openAndPress: 'Si fuiste tú, abre este enlace y pulsa el botón de la página:',
    button: 'Revisar el vínculo con esta billetera',
    pasteLink: 'O pega este enlace en tu navegador:',
    validity:
      'El enlace funciona una sola vez y durante 7 días. Si no fuiste tú, ignora este correo: no se vincula nada a menos que se pulse el botón de esa página.',
    stop: ({ name }) => `Dejar de recibir correos de ${name}`,
  },
  page: {
    pending: {
      title: '¿Vincular esta billetera a tu correo?',
      message:
        'Comprueba la dirección entera de abajo con la de tu billetera, carácter por carácter: otra persona puede crear una billetera cuya dirección empiece y termine como la tuya. Pulsa el botón para vincular esta billetera a esta dirección de correo en la lista de acceso a la preventa: el equipo sabrá que ambas pertenecen a la misma persona. La billetera que estuviera vinculada antes a esta dirección se reemplaza. Si no lo pediste, cierra esta página: no se vinculará nada.',
      button: 'Vincular esta billetera',
    },
    linked: {
      title: 'Billetera vinculada',
      message: 'La billetera de abajo ya está vinculada a esta dirección de correo. Puedes cerrar esta página.',
    },
    expired: {
      title: 'Este enlace ha caducado',
      message:
        'Los enlaces para vincular una billetera funcionan durante 7 días. Vuelve a pedirlo en la página de la lista de acceso con tu billetera y te enviaremos uno nuevo.',
    },
    usedLink: {
      title: 'Este enlace no funciona',
      message:
        'El enlace está incompleto, ya se usó o lo reemplazó una solicitud más reciente de la misma billetera. Para vincular una billetera, pídelo en la página de la lista de acceso con esa billetera.',
    },
  },
};
