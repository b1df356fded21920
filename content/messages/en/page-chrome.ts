// The fixed words of every page around the content file's own (content/site-content.ts), in
// English: the footer, the banner's and FAQ's words about the contract address, the link pages'
// way home, the not-found page and the documents' titles. Rendered on the server only, so no
// island's script carries them. docs/decisions/0043-messages-as-codes.md
import type { PageChromeMessages } from '../../../src/shared/messages/page-chrome.ts';
import type { RichText } from '../../../src/shared/messages/rich-text.ts';

interface Site {
  /** "Diamond Hand (DH)" */
  site: string;
}

export const pageChromeMessages: PageChromeMessages = {
  privacyLink: 'Privacy notice',
  copyright: ({ year, site }: Site & { year: number }): string => `© ${year} ${site}`,
  /** After a social button's name, for screen readers (the visible button says only the name). */
  opensInNewTab: '(opens in a new tab)',
  heroLine: ({ site, network }: Site & { network: string }): string => `${site} · a meme coin on ${network}`,
  comingSoon: 'Coming Soon',
  contractAddress: 'Official contract address:',
  faqTitle: 'FAQS',
  faqContractAddress: ({ address }: { address: string }): RichText => [
    'The official contract address is ',
    { code: address },
    '. Check it here before you send anything.',
  ],
  /** The language switcher's name, for screen readers. */
  languages: 'Languages',
  /** Offered at the top of another language's home page to a browser that prefers this language. */
  offer: 'Read this page in English',
  /** The offer's close button, for screen readers (it shows ×), in the page's own language. */
  offerDismiss: 'Dismiss',
  /** Atop a translated privacy notice while its translation is a draft (its meta.ts's review). */
  draftTranslation:
    'This translation is a draft, not yet reviewed by a native speaker. If in doubt, the notice in English is the one that applies:',
  /** The share image's line beside "Coming Soon": where the token lives. */
  onNetwork: ({ network }: { network: string }): string => `on ${network}`,
  homeLink: 'Go to the home page',
  notFound: {
    title: 'Page not found',
    message: 'There is nothing at this address. Diamond hands hold; this link didn’t.',
    description: 'There is nothing at this address.',
  },
  /** The documents' <title> and description, beside the site's name. */
  titled: ({ title, site }: Site & { title: string }): string => `${title} · ${site}`,
  privacyDescription: ({ site }: Site): string => `What the ${site} website collects, why, and how to have it erased.`,
  terms: {
    link: 'Presale terms',
    description: ({ site }: { site: string }): string =>
      `The terms of the ${site} presale allowlist, and who may join it.`,
    version: ({ version }: { version: string }): string =>
      `Version ${version}. Joining the allowlist accepts this version.`,
    excludedHeading: 'Who may not join',
    excluded: ({ countries }: { countries: string }): string => `Residents of ${countries} may not join the allowlist.`,
    noneExcluded: 'No country is excluded, but you may join only where taking part is lawful.',
    draft:
      'The terms are shown in English: their translation into this language is a draft, not yet reviewed by a native speaker, and the English terms are the ones that apply.',
  },
};
