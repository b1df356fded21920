// The pages' fixed words in Spanish: a draft, not yet reviewed by a native speaker (./meta.ts).
// Typed by the English file.
import type { PageChromeMessages } from '../../../src/shared/messages/page-chrome.ts';

export const pageChromeMessages: PageChromeMessages = {
  privacyLink: 'Aviso de privacidad',
  copyright: ({ year, site }) => `© ${year} ${site}`,
  opensInNewTab: '(se abre en una pestaña nueva)',
  heroLine: ({ site, network }) => `${site} · una memecoin en ${network}`,
  comingSoon: 'Próximamente',
  contractAddress: 'Dirección oficial del contrato:',
  faqTitle: 'PREGUNTAS FRECUENTES',
  faqContractAddress: ({ address }) => [
    'La dirección oficial del contrato es ',
    { code: address },
    '. Compruébala aquí antes de enviar nada.',
  ],
  languages: 'Idiomas',
  offer: 'Ver esta página en español',
  offerDismiss: 'Cerrar',
  draftTranslation:
    'Esta traducción es un borrador que aún no ha revisado un hablante nativo. En caso de duda, vale el aviso en inglés:',
  onNetwork: ({ network }) => `en ${network}`,
  homeLink: 'Ir a la página de inicio',
  notFound: {
    title: 'Página no encontrada',
    message: 'No hay nada en esta dirección. Las manos de diamante aguantan; este enlace, no.',
    description: 'No hay nada en esta dirección.',
  },
  titled: ({ title, site }) => `${title} · ${site}`,
  privacyDescription: ({ site }) => `Qué recopila el sitio web de ${site}, por qué y cómo pedir que se borre.`,
  terms: {
    link: 'Términos de la preventa',
    description: ({ site }: { site: string }): string =>
      `Los términos de la lista de acceso a la preventa de ${site}, y quién puede unirse.`,
    version: ({ version }: { version: string }): string =>
      `Versión ${version}. Unirse a la lista de acceso acepta esta versión.`,
    excludedHeading: 'Quién no puede unirse',
    excluded: ({ countries }: { countries: string }): string =>
      `Los residentes de ${countries} no pueden unirse a la lista de acceso.`,
    noneExcluded: 'Ningún país está excluido, pero solo puedes unirte donde participar sea legal.',
    draft:
      'Los términos se muestran en inglés: su traducción al español es un borrador que aún no ha revisado un hablante nativo, y los términos en inglés son los que se aplican.',
  },
};
