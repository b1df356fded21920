// Where each locale's pages live (docs/decisions/0050-a-url-per-locale.md): English, the default,
// at the root, so every address already published or mailed stays; each other locale under its
// own first segment (`/es/`, `/es/privacy`). Shared by the server's routes, the page's links and
// the emails' links, so the three can never disagree.
import { defaultLocale, locales, localeSegment, localeTag, type Locale, type ShareImageFont } from './locales.ts';

/** `path` (one of pagePaths) as the page in `locale`: `/` → `/es/`, `/privacy` → `/es/privacy`. */
export function localePath(locale: Locale, path: string): string {
  const segment = localeSegment(locale);
  return segment === '' ? path : `/${segment}${path}`;
}

/** The locale whose segment starts `path`, and the page path under it; the default for any other. */
export function localeOfPath(path: string): { locale: Locale; rest: string } {
  for (const locale of locales) {
    const segment = localeSegment(locale);
    if (segment === '') continue;
    if (path === `/${segment}`) return { locale, rest: '' };
    if (path.startsWith(`/${segment}/`)) return { locale, rest: path.slice(segment.length + 1) };
  }
  return { locale: defaultLocale, rest: path };
}

/**
 * A page's every translation, then x-default (the English page at the root, which decides nothing
 * for anyone), as absolute URLs: for `<link rel="alternate" hreflang>` and the sitemap.
 * https://developers.google.com/search/docs/specialty/international/localized-versions
 */
export function alternates(publicUrl: string, path: string): { hreflang: string; href: string }[] {
  return [
    ...locales.map((l) => ({ hreflang: localeTag(l), href: `${publicUrl}${localePath(l, path)}` })),
    { hreflang: 'x-default', href: `${publicUrl}${localePath(defaultLocale, path)}` },
  ];
}

/**
 * The share image a page in `locale` names in its Open Graph and Twitter tags: its own language's
 * picture (`/og-image-es.png`), English's at the old address. A locale whose folder names no font
 * for it (its meta.ts's `shareImageFont`: the build's DejaVu has no CJK glyphs, decision 0050) uses
 * English's.
 */
export function shareImagePath(locale: Locale, font: ShareImageFont | null): string {
  const segment = localeSegment(locale);
  return segment === '' || font === null ? '/og-image.png' : `/og-image-${segment}.png`;
}
