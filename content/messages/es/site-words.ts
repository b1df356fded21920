// The content file's (content/site-content.ts) words in Spanish: a draft by the team, not yet reviewed by a native speaker
// (./meta.ts says the same for the message files).
import type { ContentWords } from '../../../src/shared/content-schema.ts';

export const siteWords: ContentWords = {
  description:
    'Diamond Hand (DH) es una meme coin comunitaria en Ethereum para quienes nunca venden por pánico. Preventa muy pronto.',
  heroTagline: 'Abraza el caos, mantén la línea: ¡Diamond Hand es para los verdaderos HODLers!',
  bannerHeadline: 'PREPÁRATE PARA LA PREVENTA CRIPTO MÁS ESPERADA DE',
  stayUpdated: {
    heading: 'Mantente al día',
    intro: 'Únete a nuestra lista de correo y entérate primero de ventajas y bonos exclusivos...',
  },
  closingLine: 'Diamond Hand es para los verdaderos HODLers',
  referrals: {
    reward:
      'Las 100 personas con más invitaciones confirmadas obtienen un lugar garantizado en la allowlist, revisado por nuestro equipo antes de concederlo. Las invitaciones no dan tokens ni dinero.',
  },
  riskNotice: 'Los criptoactivos son volátiles. Nada en este sitio es asesoramiento financiero.',
  faq: [
    {
      question: '¿Qué es Diamond Hand (DH)?',
      answer: 'Una meme coin comunitaria para quienes no venden por pánico: las «manos de diamante» del mundo cripto.',
    },
    { question: '¿En qué red está DH?', answer: 'En Ethereum.' },
    {
      question: '¿Cuándo empieza la preventa?',
      answer:
        'Pronto. Sigue nuestros canales de Telegram y Twitter, o únete a la lista de correo de abajo, para enterarte en cuanto abra.',
    },
    {
      question: '¿Cuál es la dirección del contrato inteligente?',
      answer:
        'Se anunciará pronto, solo en este sitio y en nuestros canales oficiales. Nunca confíes en una dirección que te envíen por mensaje privado.',
    },
    {
      question: '¿Qué hace diferente a DH?',
      answer: 'Aguantar firme en la volatilidad, y una comunidad que cree en el largo plazo.',
    },
  ],
};
