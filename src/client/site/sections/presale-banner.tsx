import { content, presaleLabel } from '../content.ts';
import { SocialLinks } from './social-links.tsx';

export function PresaleBanner() {
  return (
    <section className="banner" aria-labelledby="banner-title">
      <h2 id="banner-title">
        {`${content.banner.headline} ${content.banner.year}`}
      </h2>
      <p className="banner-status">{presaleLabel(content)}</p>
      <SocialLinks />
    </section>
  );
}
