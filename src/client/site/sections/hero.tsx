import { content } from '../content.ts';

export function Hero() {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <h1 id="hero-title">{content.heroTagline}</h1>
      <p className="hero-sub">{`${content.name} (${content.ticker}) · a meme coin on ${content.network}`}</p>
    </section>
  );
}
