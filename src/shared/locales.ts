// The languages the site speaks: the one registry. A locale is one line here and one
// folder, content/messages/<locale>/, holding everything about it (its words, its meta.ts: script
// direction, name in itself, consent version, share-image font, whether a native speaker has
// reviewed it). The line carries the name the console (which is in English) calls it by, because the
// console's shared schemas word their refusals with it and src/shared reads nothing from content/.
// See docs/decisions/0043-messages-as-codes.md and docs/decisions/0044-locales-and-draft-translations.md.

const registry = {
  en: 'English',
  es: 'Spanish',
  'pt-br': 'Brazilian Portuguese',
  'zh-cn': 'Simplified Chinese',
  ar: 'Arabic',
} as const;

export type Locale = keyof typeof registry;

/** Every locale, in the registry's order: the order of language links, exports and reports. */
export const locales = Object.keys(registry) as readonly Locale[] as readonly [Locale, ...Locale[]];

/** What a page, an answer or an email is written in when nothing says otherwise. */
export const defaultLocale: Locale = 'en';

/** The locales whose words are a translation of the default's (English's). */
export type TranslatedLocale = Exclude<Locale, 'en'>;
export const translatedLocales: readonly TranslatedLocale[] = locales.filter(
  (l): l is TranslatedLocale => l !== defaultLocale,
);

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && Object.hasOwn(registry, value);

/** Each locale's name in English, for the console (which stays English): "Brazilian Portuguese". */
export const localeEnglishNames: Readonly<Record<Locale, string>> = registry;

/**
 * The BCP 47 tag for `<html lang>`, `hreflang` and `Intl`: the code in its canonical spelling
 * (`pt-br` → `pt-BR`). A rule rather than a field, so a code and its tag cannot disagree.
 */
export const localeTag = (locale: Locale): string => Intl.getCanonicalLocales(locale)[0] ?? locale;

/**
 * The locale's first path segment (`/es/`): its code. English, the default, keeps the root, so the
 * addresses already published and mailed stay (docs/decisions/0050-a-url-per-locale.md).
 */
export const localeSegment = (locale: Locale): string => (locale === defaultLocale ? '' : locale);

/** What a locale's folder says about it besides its words (content/messages/<locale>/meta.ts). */
export interface LocaleMeta {
  dir: 'ltr' | 'rtl';
  /** The language's name in itself, for the language switcher: "Português (Brasil)". */
  name: string;
  /**
   * The version on record of the consent sentence (its `signup.consent`): a sign-up stores the
   * version of its page's language. Change it whenever that sentence changes.
   */
  consentVersion: string;
  /**
   * The font the build draws the share image's words with (scripts/make-images.ts), or null when
   * none it ships can draw the script: the page then names English's image.
   */
  shareImageFont: ShareImageFont | null;
  review: TranslationReview;
}

/** The fonts the build ships for share images (the dejavu-fonts-ttf package). */
export type ShareImageFont = 'DejaVu Sans';

/** Who wrote a locale's words and whether a native speaker has reviewed them. */
export type TranslationReview =
  | {
      reviewed: true;
      /** Who signed it off, e.g. "Ana Souza (native speaker), 2026-12-02". */
      reviewedBy: string;
      translatedBy: string;
    }
  | {
      reviewed: false;
      translatedBy: string;
    };

/** A locale's meta with what the code decides (tag, segment): the table pages and emails read. */
export interface LocaleInfo extends LocaleMeta {
  tag: string;
  segment: string;
}
