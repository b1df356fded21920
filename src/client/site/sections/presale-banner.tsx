import type { PresaleProps } from '../../../shared/site-pages.ts';
import { comingSoonText, content } from '../content.ts';
import { PresaleCountdown } from './presale-countdown.tsx';
import { SocialLinks } from './social-links.tsx';

export function PresaleBanner({ presale }: { presale?: PresaleProps | undefined }) {
  return (
    <section className="banner" aria-labelledby="banner-title">
      <h2 id="banner-title">{`${content.banner.headline} ${content.banner.year}`}</h2>
      {presale ? <PresaleCountdown presale={presale} /> : <p className="banner-status">{comingSoonText}</p>}
      {content.contractAddress ? (
        <p className="banner-contract">
          Official contract address: <code className="contract-address">{content.contractAddress}</code>
        </p>
      ) : null}
      <SocialLinks />
    </section>
  );
}
