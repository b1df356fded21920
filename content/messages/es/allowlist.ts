// The allowlist's words in Spanish: a draft, not yet reviewed by a native speaker (./meta.ts).
// Typed by the English file.
import type { RichText } from '../../../src/shared/messages/rich-text.ts';
import type { WalletMessages, WalletPageWords, WalletRefusals } from '../../../src/shared/messages/allowlist.ts';
import { walletRefusals as english } from '../en/allowlist.ts';

export const walletPageWords: WalletPageWords = {
  headerJoin: 'Unirse a la lista de acceso',
  headerClosed: 'Lista de acceso cerrada',
  heading: 'Lista de acceso a la preventa',
  intro:
    'Demuestra que eres dueño de una billetera firmando un mensaje corto, y tu dirección entrará en la lista de la preventa. Es gratis.',
  closed: 'La lista de acceso está cerrada por ahora. Sigue nuestros canales para saber cuándo abre la próxima ronda.',
  connect: 'Conectar billetera',
  never:
    'Esta página solo le pide a tu billetera que firme un mensaje de Sign-In with Ethereum. Nunca pide una transacción, una aprobación de tokens ni un permit, y no puede mover tus fondos.',
  needs:
    'Para unirte necesitas JavaScript y una billetera: una extensión del navegador o el navegador integrado en la app de tu billetera.',
  emailOffer:
    'Recibe un aviso cuando abra la preventa (opcional): primero te enviamos un enlace de confirmación, y tu correo cuenta en cuanto lo pulses.',
  emailSubmit: 'Avisarme cuando abra la preventa',
  whoMayJoin: ({ countries, terms }: { countries: string | null; terms: string }): RichText => [
    countries === null ? '' : `Los residentes de ${countries} no pueden unirse. `,
    'Unirte acepta los ',
    { link: 'términos de la preventa', href: terms },
    countries === null
      ? ', en el mensaje que firmas (en inglés, como exige el estándar Sign-In with Ethereum).'
      : ', y el mensaje que firmas declara que no resides en esos países (en inglés, como exige el estándar Sign-In with Ethereum).',
  ],
};

export const walletMessages: WalletMessages = {
  connect: 'Conectar billetera',
  looking: 'Buscando billeteras en este navegador…',
  choose: 'Elige tu billetera:',
  noWallet:
    'No se encontró ninguna billetera en este navegador. Instala una extensión de billetera o abre esta página en el navegador integrado en la app de tu billetera:',
  openIn: ({ wallet }) => `Abrir en ${wallet}`,
  connecting: ({ wallet }) => `Pidiendo tu dirección a ${wallet}…`,
  switching: ({ chainId }) => `Pidiendo a tu billetera que cambie a la red de la preventa (cadena ${chainId})…`,
  wrongChain: ({ chainId, button }) =>
    `Tu billetera está en otra red. Pulsa «${button}» para cambiarla a la cadena ${chainId} (o cámbiala en tu billetera).`,
  checking: 'Comprobando la lista de acceso…',
  join: 'Firmar para unirme a la lista de acceso',
  leave: 'Firmar para salir de la lista de acceso',
  signing: 'Firma el mensaje en tu billetera. Es gratis y no mueve nada.',
  joined: ({ address, since }) => `${address} está en la lista de acceso desde ${since}.`,
  notJoined: ({ address }) => `${address} aún no está en la lista de acceso.`,
  left: ({ address }) => `${address} salió de la lista de acceso.`,
  declined: 'Lo rechazaste en tu billetera. No se firmó nada y nada cambió.',
  walletError: 'Tu billetera no respondió como esperábamos. Vuelve a intentarlo.',
  accountChanged: ({ address }) =>
    `Tu billetera ahora usa ${address}. Pulsa el botón para continuar con esa dirección.`,
};

export const walletRefusals: WalletRefusals = {
  // Stays English: EIP-4361 allows only ASCII in a statement, and the server checks the signed
  // message against English's words.
  statement: english.statement,
  restrictedCountry: ({ country }: { country: string }): string =>
    `Nuestro servidor sitúa tu conexión en ${country}, cuyos residentes no pueden unirse a esta lista de acceso (consulta los términos de la preventa). Si vives en ${country}, no puedes unirte. Si no estás en ${country}, la búsqueda se equivoca: adivina a partir de la dirección de tu red y puede fallar cuando viajas o cuando tu proveedor envía tu tráfico por otro país. Vuelve a intentarlo desde otra conexión. No hemos guardado nada sobre ti ni sobre tu billetera.`,
  notOpen: 'La lista de acceso no está abierta.',
  closed: 'La lista de acceso está cerrada: ahora nadie puede unirse.',
  malformed:
    'Ese no es un mensaje de Sign-In with Ethereum que podamos leer. Vuelve a pulsar el botón para obtener uno nuevo.',
  wrongDomain: ({ domain }) => `Ese mensaje es para otro sitio web. Este sitio solo acepta mensajes para ${domain}.`,
  wrongUri: ({ uri }) => `Ese mensaje indica una dirección distinta de ${uri}.`,
  wrongChain: ({ chainId }) => `Ese mensaje es para otra red. La red de la preventa es la cadena ${chainId}.`,
  wrongStatement: 'Ese mensaje no dice lo que este sitio te pidió firmar. Vuelve a pulsar el botón.',
  unknownNonce: 'Ese mensaje no lo escribió este sitio. Vuelve a pulsar el botón para obtener uno nuevo.',
  usedNonce: 'Ese mensaje ya se usó. Cada uno vale una sola vez: vuelve a pulsar el botón.',
  expired: 'Ese mensaje caducó (cada uno es válido durante 10 minutos). Vuelve a pulsar el botón.',
  otherAddress: 'Ese mensaje se escribió para una dirección distinta de la que indica.',
  otherSigner: ({ address }) => `La firma no la hizo ${address}. Firma con la billetera que tiene esta dirección.`,
  unreadableSignature: 'No se pudo leer esa firma. Vuelve a firmar.',
  highS:
    'Esa firma tiene una forma que ninguna billetera produce (su valor «s» está en la mitad superior, que Ethereum rechaza desde EIP-2), aunque la misma clave pueda producirla. Vuelve a firmar con tu billetera.',
  contractWalletUnchecked: ({ address }) =>
    `Si ${address} es una billetera de contrato inteligente, este sitio aún no puede comprobar su firma: para eso necesita una conexión a un nodo de Ethereum (ETH_RPC_URL), que no está configurada. Usa una dirección de billetera normal.`,
  contractWalletDown:
    'No pudimos conectar con el nodo de Ethereum para comprobar una billetera de contrato inteligente. Vuelve a intentarlo en un minuto.',
  tooMany: ({ seconds }) => `Demasiados intentos desde tu red. Vuelve a intentarlo en ${seconds} segundos.`,
  tooFast: 'Eso fue más rápido de lo que puede ir una persona. Espera unos segundos y vuelve a pulsar el botón.',
  notOnList: ({ address }) => `${address} no está en la última instantánea de la lista de acceso.`,
  noSnapshot: 'Todavía no se ha congelado ninguna instantánea de la lista de acceso.',
  linkUnproved:
    'No podemos saber si esta solicitud viene de la billetera que se unió: vincular un correo necesita una firma nueva. Vuelve a firmar para unirte (conservas tu lugar en la lista) y después añade tu correo.',
  linkAsked:
    'Gracias. Si esta dirección puede recibir nuestros correos, le enviamos un correo que nombra esta billetera: la billetera queda vinculada solo cuando se pulsa el botón de la página a la que lleva. Si la dirección aún no ha confirmado su suscripción, también le llegará un enlace de confirmación.',
};
