// The presale's terms in every locale (content/site-content.ts's presaleTerms.pages): each folder's
// terms.ts, read by the registry (src/shared/locales.ts). A draft locale's page shows English's.
import type { TermsPage } from '../../src/shared/content-schema.ts';
import { locales, type Locale } from '../../src/shared/locales.ts';
import { readFolders } from '../../src/shared/messages/folders.ts';

export const termsPages: Record<Locale, TermsPage> = await readFolders(
  locales,
  (locale) => import(`./${locale}/terms.ts`),
  'terms',
  'terms.ts',
);
