import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { locales } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { usePage } from '../page-context.tsx';

// The language switcher: plain links to the same page in each language, so it works with
// JavaScript off and a crawler follows it. Each name is written in its own language (and marked
// so with `lang`, for screen readers and fonts); the current one is not a link.
export function LanguageLinks({ path }: { path: string }) {
  const { locale, words } = usePage();
  return (
    <nav className="languages" aria-label={words.pageChrome.languages}>
      <ul>
        {locales.map((l) => {
          const { tag, dir, name } = localeInfo[l];
          return (
            <li key={l} lang={tag} dir={dir}>
              {l === locale ? (
                <span aria-current="page">{name}</span>
              ) : (
                <a href={localePath(l, path)} hrefLang={tag}>
                  {name}
                </a>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
