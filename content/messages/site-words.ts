// The content file's words (content/site-content.ts) in every locale but the default, whose are the
// content file itself: each folder's site-words.ts, read by the registry (src/shared/locales.ts).
import type { ContentWords } from '../../src/shared/content-schema.ts';
import { translatedLocales, type TranslatedLocale } from '../../src/shared/locales.ts';
import { readFolders } from '../../src/shared/messages/folders.ts';

export const siteWords: Record<TranslatedLocale, ContentWords> = await readFolders(
  translatedLocales,
  (locale) => import(`./${locale}/site-words.ts`),
  'siteWords',
  'site-words.ts',
);
