import { isLocale, localeEnglishNames, type Locale } from '../locales.ts';

// Each locale's name in English, for the console (which stays in English): a language
// select, a broadcast's versions, the Audience report. The names are the registry's
// (src/shared/locales.ts), one line per locale; a locale's name in itself, for visitors, is in its
// folder's meta.ts.
export { localeEnglishNames };

/** A stored locale's English name; a code this build no longer speaks shows as it is stored. */
export const languageName = (locale: string): string => (isLocale(locale) ? localeEnglishNames[locale] : locale);

/** "Spanish", "Spanish and Arabic", "Spanish, Arabic and Simplified Chinese". */
export function namesOf(list: readonly Locale[]): string {
  const names = list.map((l) => localeEnglishNames[l]);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}
