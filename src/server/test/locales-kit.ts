// What tests say about locales besides the registry (src/shared/locales.ts), which they read for
// everything the site speaks, so a locale added by its folder and one line needs no test edited.

/**
 * The example of a language the site does not speak: a BCP 47 private-use tag. It can never become
 * a registry line: `Intl` refuses it (`Intl.getCanonicalLocales('x-none')` throws), so the line's
 * `<html lang>` tag could not be made and every page would fail, which content/messages/folders.test.ts
 * checks. A real code such as 'fr' stops being an example the day French is added; 'x-none' never does.
 * Accept-Language negotiation matches nothing with it, so the answer is the default (English).
 */
export const unspokenLocale = 'x-none';
