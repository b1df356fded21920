import type { PrivacyMessages } from '../../../content/messages/en/privacy.ts';
import { pagePaths } from '../../shared/paths.ts';
import { content, siteName } from './content.ts';
import { Rich } from './rich-text.tsx';

// The notice's words are the message file's (content/messages/<locale>/privacy.ts); this lays
// them out: a heading per section, its paragraphs and lists.
export function PrivacyPage({ words }: { words: PrivacyMessages }) {
  return (
    <article className="prose" aria-labelledby="privacy-title">
      <h1 id="privacy-title">{words.title}</h1>
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
        <a href={pagePaths.home}>{words.backLink}</a>
      </p>
    </article>
  );
}
