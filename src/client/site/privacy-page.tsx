import { pagePaths } from '../../shared/paths.ts';
import { messagesFor } from '../../../content/messages/catalog.ts';
import { localeInfo } from '../../../content/messages/locale-info.ts';
import { siteName } from './content.ts';
import { usePage } from './page-context.tsx';
import { Rich } from './rich-text.tsx';

// The notice's words are the message file's (content/messages/<locale>/privacy.ts); this lays
// them out: a heading per section, its paragraphs and lists.
export function PrivacyPage() {
  const { content, words: all, href, locale } = usePage();
  const words = all.privacy;
  const draft = !localeInfo[locale].review.reviewed;
  return (
    <article className="prose" aria-labelledby="privacy-title">
      <h1 id="privacy-title">{words.title}</h1>
      {draft ? (
        <p className="draft-notice">
          {all.pageChrome.draftTranslation}{' '}
          <a href={pagePaths.privacy} hrefLang="en" lang="en">
            {messagesFor('en').privacy.title}
          </a>
        </p>
      ) : null}
      <p>{words.intro({ site: siteName })}</p>
      {words.sections({ name: content.name }).map((section) => [
        <h2 key={section.heading}>{section.heading}</h2>,
        ...section.blocks.map((block, i) =>
          'p' in block ? (
            <p key={`${section.heading}-${i}`}>
              <Rich text={block.p} />
            </p>
          ) : (
            <ul key={`${section.heading}-${i}`}>
              {block.ul.map((item, j) => (
                <li key={j}>
                  <Rich text={item} />
                </li>
              ))}
            </ul>
          ),
        ),
      ])}
      <p>
        <a href={href(pagePaths.home)}>{words.backLink}</a>
      </p>
    </article>
  );
}
