// The fixed words of every page around the content file's own (content/messages/<locale>/
// page-chrome.ts): rendered on the server only, so no island's script carries them.
import type { RichText } from './rich-text.ts';

interface Site {
  /** "Diamond Hand (DH)" */
  site: string;
}

export interface PageChromeMessages {
  privacyLink: string;
  copyright: (p: Site & { year: number }) => string;
  /** After a social button's name, for screen readers (the visible button says only the name). */
  opensInNewTab: string;
  heroLine: (p: Site & { network: string }) => string;
  comingSoon: string;
  contractAddress: string;
  faqTitle: string;
  faqContractAddress: (p: { address: string }) => RichText;
  /** The language switcher's name, for screen readers. */
  languages: string;
  /** Offered at the top of another language's home page to a browser that prefers this language. */
  offer: string;
  /** The offer's close button, for screen readers (it shows ×), in the page's own language. */
  offerDismiss: string;
  /** Atop a translated privacy notice while its translation is a draft (its meta.ts's review). */
  draftTranslation: string;
  /** The share image's line beside "Coming Soon": where the token lives. */
  onNetwork: (p: { network: string }) => string;
  homeLink: string;
  notFound: { title: string; message: string; description: string };
  /** The documents' <title> and description, beside the site's name. */
  titled: (p: Site & { title: string }) => string;
  privacyDescription: (p: Site) => string;
  /** The presale terms page's words around the team's own (content/messages/<locale>/terms.ts). */
  terms: TermsChrome;
}

export interface TermsChrome {
  /** The footer's link to the page. */
  link: string;
  description: (p: Site) => string;
  /** Under the title: the version a join accepts. */
  version: (p: { version: string }) => string;
  excludedHeading: string;
  /** `countries`: the restricted countries as one phrase of this language ("Cuba and Iran"). */
  excluded: (p: { countries: string }) => string;
  noneExcluded: string;
  /** Atop the page while this locale's translation is a draft: the terms then shown are English's. */
  draft: string;
}
