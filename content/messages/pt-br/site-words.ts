// The content file's (content/site-content.ts) words in Brazilian Portuguese: a draft by the team, not yet reviewed by a
// native speaker (./meta.ts says the same for the message files).
import type { ContentWords } from '../../../src/shared/content-schema.ts';

export const siteWords: ContentWords = {
  description:
    'Diamond Hand (DH) é uma meme coin comunitária na Ethereum para quem nunca vende no pânico. Pré-venda em breve.',
  heroTagline: 'Abrace o caos, segure firme: a Diamond Hand é para os verdadeiros HODLers!',
  bannerHeadline: 'PREPARE-SE PARA A PRÉ-VENDA CRIPTO MAIS QUENTE DE',
  stayUpdated: {
    heading: 'Fique por dentro',
    intro: 'Entre na nossa lista de e-mail e saia na frente com vantagens e bônus exclusivos...',
  },
  closingLine: 'A Diamond Hand é para os verdadeiros HODLers',
  referrals: {
    reward:
      'As 100 pessoas com mais convites confirmados ganham uma vaga garantida na allowlist, verificada pela nossa equipe antes de ser concedida. Convites não rendem tokens nem dinheiro.',
  },
  riskNotice: 'Criptoativos são voláteis. Nada neste site é aconselhamento financeiro.',
  faq: [
    {
      question: 'O que é a Diamond Hand (DH)?',
      answer: 'Uma meme coin comunitária para quem não vende no pânico: as “mãos de diamante” do mundo cripto.',
    },
    { question: 'Em qual rede está a DH?', answer: 'Na Ethereum.' },
    {
      question: 'Quando começa a pré-venda?',
      answer:
        'Em breve. Siga nossos canais no Telegram e no Twitter, ou entre na lista de e-mail abaixo, para saber assim que ela abrir.',
    },
    {
      question: 'Qual é o endereço do contrato inteligente?',
      answer:
        'Será anunciado em breve, apenas neste site e nos nossos canais oficiais. Nunca confie em um endereço enviado a você por mensagem privada.',
    },
    {
      question: 'O que torna a DH diferente?',
      answer: 'Segurar firme na volatilidade, e uma comunidade que acredita no longo prazo.',
    },
  ],
};
