// The languages the site speaks (issue 19). A locale is added here, in its folder of message files
// beside en/ (with its meta.ts), in catalog.ts (which does not compile until every surface has the
// same keys and parameters as English) and in review.ts.
// docs/decisions/0043-messages-as-codes.md, docs/decisions/0044-locales-and-draft-translations.md

export const locales = ['en', 'es', 'pt-br', 'zh-cn', 'ar'] as const;
export type Locale = (typeof locales)[number];

/** What a page, an answer or an email is written in when nothing says otherwise. */
export const defaultLocale: Locale = 'en';

export interface LocaleInfo {
  /** The BCP 47 tag for `<html lang>` and `Intl`: region subtags in capitals. */
  tag: string;
  dir: 'ltr' | 'rtl';
  /**
   * The locale's first path segment once pages have a URL per language (`/es/`), lower case.
   * English, the default, keeps the root, so the addresses already published and mailed stay.
   */
  segment: string;
  /** The language's name in itself, for a language switcher. */
  name: string;
}

export const localeInfo: Record<Locale, LocaleInfo> = {
  en: { tag: 'en', dir: 'ltr', segment: '', name: 'English' },
  es: { tag: 'es', dir: 'ltr', segment: 'es', name: 'Español' },
  'pt-br': { tag: 'pt-BR', dir: 'ltr', segment: 'pt-br', name: 'Português (Brasil)' },
  'zh-cn': { tag: 'zh-CN', dir: 'ltr', segment: 'zh-cn', name: '简体中文' },
  ar: { tag: 'ar', dir: 'rtl', segment: 'ar', name: 'العربية' },
};

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (locales as readonly string[]).includes(value);
