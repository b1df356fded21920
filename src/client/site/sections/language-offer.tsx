import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { locales } from '../../../shared/locales.ts';
import { catalog } from '../../../../content/messages/catalog.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { usePage } from '../page-context.tsx';

// The offer of another language (docs/decisions/0050-a-url-per-locale.md): every home page carries
// a one-tap link to each other language's, each in that language and hidden. The page's inline
// loader (src/server/features/site/site-build.ts) shows the one that the browser prefers over the page's
// own, if any. Nobody is redirected, so `/` stays one cacheable document; with JavaScript off
// nothing shows, and the footer's language links are there as on every page.
export function LanguageOffer() {
  const { locale, words } = usePage();
  return (
    <p className="language-offer" data-language-offer="" hidden>
      {locales
        .filter((l) => l !== locale)
        .map((l) => {
          const { tag, dir } = localeInfo[l];
          return (
            <a key={l} href={localePath(l, '/')} lang={tag} dir={dir} hrefLang={tag} hidden>
              {catalog[l].pageChrome.offer}
            </a>
          );
        })}
      <button type="button" aria-label={words.pageChrome.offerDismiss}>
        ×
      </button>
    </p>
  );
}
