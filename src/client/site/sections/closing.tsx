import type { PageChromeMessages } from '../../../../content/messages/en/page-chrome.ts';
import { content } from '../content.ts';
import { SocialLinks } from './social-links.tsx';

export function Closing({ words }: { words: PageChromeMessages }) {
  return (
    <section className="closing" aria-labelledby="closing-title">
      <h2 id="closing-title">{content.closingLine}</h2>
      <SocialLinks words={words} />
    </section>
  );
}
