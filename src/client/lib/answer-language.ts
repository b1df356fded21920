// Dependency-free on purpose: the allowlist's plain-script island uses it without the HTTP helper.

/**
 * The language answers should be written in: the page's own (`<html lang>`), not whatever the
 * browser prefers, so a Spanish page gets Spanish answers wherever its visitor is. The server
 * reads it as any Accept-Language (src/server/plugins/request-locale.ts).
 */
export const answerLanguage = (): Record<string, string> =>
  typeof document === 'undefined' || !document.documentElement.lang
    ? {}
    : { 'accept-language': document.documentElement.lang };
