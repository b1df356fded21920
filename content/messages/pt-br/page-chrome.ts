// The pages' fixed words in Brazilian Portuguese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { PageChromeMessages } from '../../../src/shared/messages/page-chrome.ts';

export const pageChromeMessages: PageChromeMessages = {
  privacyLink: 'Aviso de privacidade',
  copyright: ({ year, site }) => `© ${year} ${site}`,
  opensInNewTab: '(abre em uma nova aba)',
  // "na rede": the network's name comes from the content file, and "rede" gives it a gender.
  heroLine: ({ site, network }) => `${site} · uma memecoin na rede ${network}`,
  comingSoon: 'Em breve',
  contractAddress: 'Endereço oficial do contrato:',
  faqTitle: 'PERGUNTAS FREQUENTES',
  faqContractAddress: ({ address }) => [
    'O endereço oficial do contrato é ',
    { code: address },
    '. Confira aqui antes de enviar qualquer coisa.',
  ],
  languages: 'Idiomas',
  offer: 'Ver esta página em português',
  offerDismiss: 'Fechar',
  draftTranslation:
    'Esta tradução é um rascunho ainda não revisado por um falante nativo. Em caso de dúvida, vale o aviso em inglês:',
  onNetwork: ({ network }) => `na ${network}`,
  homeLink: 'Ir para a página inicial',
  notFound: {
    title: 'Página não encontrada',
    message: 'Não há nada neste endereço. Mãos de diamante seguram firme; este link, não.',
    description: 'Não há nada neste endereço.',
  },
  titled: ({ title, site }) => `${title} · ${site}`,
  privacyDescription: ({ site }) => `O que o site ${site} coleta, por quê e como pedir que seja apagado.`,
  terms: {
    link: 'Termos da pré-venda',
    description: ({ site }: { site: string }): string =>
      `Os termos da lista de acesso da pré-venda de ${site}, e quem pode entrar.`,
    version: ({ version }: { version: string }): string =>
      `Versão ${version}. Entrar na lista de acesso aceita esta versão.`,
    excludedHeading: 'Quem não pode entrar',
    excluded: ({ countries }: { countries: string }): string =>
      `Residentes de ${countries} não podem entrar na lista de acesso.`,
    noneExcluded: 'Nenhum país está excluído, mas você só pode entrar onde participar for legal.',
    draft:
      'Os termos são mostrados em inglês: a tradução para o português é um rascunho ainda não revisado por um falante nativo, e os termos em inglês são os que valem.',
  },
};
