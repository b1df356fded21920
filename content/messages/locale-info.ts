// What each locale is besides its words (its folder's meta.ts), with what its code decides (its
// tag and URL segment, src/shared/locales.ts), read from the folders by the registry. Small, so the
// console's script may import it without any locale's words.
import {
  locales,
  localeSegment,
  localeTag,
  type Locale,
  type LocaleInfo,
  type LocaleMeta,
} from '../../src/shared/locales.ts';
import { readFolders } from '../../src/shared/messages/folders.ts';

const metas: Record<Locale, LocaleMeta> = await readFolders(
  locales,
  (locale) => import(`./${locale}/meta.ts`),
  'meta',
  'meta.ts',
);

export const localeInfo: Record<Locale, LocaleInfo> = Object.fromEntries(
  locales.map((l) => [l, { ...metas[l], tag: localeTag(l), segment: localeSegment(l) }]),
) as Record<Locale, LocaleInfo>;

/** The locales whose words are still drafts, in the registry's order. */
export const unreviewedLocales = (): Locale[] => locales.filter((l) => !localeInfo[l].review.reviewed);
