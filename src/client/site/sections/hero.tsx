import { siteName } from '../content.ts';
import { usePage } from '../page-context.tsx';

export function Hero() {
  const { content, words: all } = usePage();
  const words = all.pageChrome;
  return (
    <section className="hero" aria-labelledby="hero-title">
      <h1 id="hero-title">{content.heroTagline}</h1>
      <p className="hero-sub">{words.heroLine({ site: siteName, network: content.network })}</p>
    </section>
  );
}
