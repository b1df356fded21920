import type { PresaleProps } from '../../../shared/site-pages.ts';
import { usePage } from '../page-context.tsx';
import { PresaleCountdown } from './presale-countdown.tsx';
import { SocialLinks } from './social-links.tsx';

export function PresaleBanner({ presale }: { presale?: PresaleProps | undefined }) {
  const { content, words: all } = usePage();
  const words = all.pageChrome;
  return (
    <section className="banner" aria-labelledby="banner-title">
      <h2 id="banner-title">{`${content.banner.headline} ${content.banner.year}`}</h2>
      {presale ? <PresaleCountdown presale={presale} /> : <p className="banner-status">{words.comingSoon}</p>}
      {content.contractAddress ? (
        <p className="banner-contract">
          {words.contractAddress} <code className="contract-address">{content.contractAddress}</code>
        </p>
      ) : null}
      <SocialLinks />
    </section>
  );
}
