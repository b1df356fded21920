import { defaultLocale, locales, type Locale } from '../../../shared/locales.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { countedPagePaths } from '../../../shared/paths.ts';

// Pages per locale in the visitor counts (decision 0048). A locale's pages live below
// its URL segment (`/es/`, `/es/privacy`); English keeps the root. The beacon sends the path as
// the browser shows it and stays as it is: the locale is read from the path here, at ingest for
// the page counted and at report time for the visits per locale, so the daily roll-ups keep one
// dimension per page and a visit's locale needs no column, no new dimension and no migration, and
// the days counted before pages had locales read as English, which they were.

/** What a path off our pages counts as: '(other)' at the root, '/es/(other)' below a locale. */
const OTHER_PAGE = '(other)';

/** The URL of `path` in `locale`: '/' → '/es/', '/privacy' → '/es/privacy'; English's as it is. */
export function localePath(locale: Locale, path: string): string {
  const { segment } = localeInfo[locale];
  if (!segment) return path;
  return path === '/' ? `/${segment}/` : `/${segment}${path}`;
}

/** Every page counted by name, in every locale. */
const countedPaths: ReadonlySet<string> = new Set(
  locales.flatMap((l) => countedPagePaths.map((p) => localePath(l, p))),
);

/** The locale whose URL segment starts `path`, if any ('/es', '/es/', '/es/privacy' → es). */
function segmentLocale(path: string): Locale | undefined {
  const first = path.split('/')[1] ?? '';
  return locales.find((l) => localeInfo[l].segment !== '' && localeInfo[l].segment === first.toLowerCase());
}

/**
 * The page a visit counts for: one of our pages in any locale ('/es' counts as '/es/'), else
 * "(other)" within its locale, so a forged beacon still cannot fill the list with junk while a
 * Spanish visit to a page not listed is not lumped with everything else.
 */
export function countedPage(path: string): string {
  const locale = segmentLocale(path);
  const normalised =
    locale && path.toLowerCase() === `/${localeInfo[locale].segment}` ? `${path.toLowerCase()}/` : path;
  if (countedPaths.has(normalised)) return normalised;
  return locale ? `/${localeInfo[locale].segment}/${OTHER_PAGE}` : OTHER_PAGE;
}

/** The locale of a counted page: its first segment's, else the default (the root is English). */
export const localeOfPage = (page: string): Locale => segmentLocale(page) ?? defaultLocale;
