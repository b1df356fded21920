import type { PageChromeMessages } from '../../../../content/messages/en/page-chrome.ts';
import { content, siteName } from '../content.ts';

export function Hero({ words }: { words: PageChromeMessages }) {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <h1 id="hero-title">{content.heroTagline}</h1>
      <p className="hero-sub">{words.heroLine({ site: siteName, network: content.network })}</p>
    </section>
  );
}
