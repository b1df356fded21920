import { pagePaths } from '../../shared/paths.ts';
import { countryListIn } from '../../shared/countries.ts';
import { localeInfo } from '../../../content/messages/locale-info.ts';
import type { TermsProps } from '../../shared/site-pages.ts';
import { usePage } from './page-context.tsx';

// The presale's terms: the team's words (content/messages/<locale>/terms.ts), then the version a
// join accepts and who may not join, the countries named in the page's own language. A locale
// whose translation is a draft shows English's terms and says so: a draft's words must not be the
// ones a person is taken to have accepted.
export function TermsPage({ terms: given }: { terms: TermsProps | undefined }) {
  const { content, words: all, href, locale } = usePage();
  const words = all.pageChrome.terms;
  // The version and countries the server was given (a test's or a deployment's content), else the file's.
  const { version, restrictedCountries } = given ?? content.presaleTerms;
  const { pages } = content.presaleTerms;
  const draft = !localeInfo[locale].review.reviewed;
  const terms = draft ? pages.en : pages[locale];
  const info = localeInfo[locale];
  return (
    <article className="prose" aria-labelledby="terms-title">
      {draft ? <p className="draft-notice">{words.draft}</p> : null}
      <div lang={draft ? 'en' : info.tag} dir={draft ? 'ltr' : info.dir}>
        <h1 id="terms-title">{terms.title}</h1>
        {terms.sections.map((section) => [
          <h2 key={section.heading}>{section.heading}</h2>,
          ...section.paragraphs.map((paragraph, i) => <p key={`${section.heading}-${i}`}>{paragraph}</p>),
        ])}
      </div>
      <h2>{words.excludedHeading}</h2>
      <p>
        {restrictedCountries.length === 0
          ? words.noneExcluded
          : words.excluded({ countries: countryListIn(info.tag, restrictedCountries) })}
      </p>
      <p>{words.version({ version })}</p>
      <p>
        <a href={href(pagePaths.home)}>{all.pageChrome.homeLink}</a>
      </p>
    </article>
  );
}
