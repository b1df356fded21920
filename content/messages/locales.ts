// The languages the site speaks. English only for now: issue 19 adds a locale here, its folder of
// message files beside en/, and its entry in catalog.ts (which does not compile until every surface
// has the same keys and parameters as English).
// docs/decisions/0043-messages-as-codes.md

export const locales = ['en'] as const;
export type Locale = (typeof locales)[number];

/** What a page, an answer or an email is written in when nothing says otherwise. */
export const defaultLocale: Locale = 'en';

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (locales as readonly string[]).includes(value);
