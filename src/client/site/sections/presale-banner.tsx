import type { PresaleProps } from '../../../shared/site-pages.ts';
import type { Messages } from '../../../../content/messages/messages.ts';
import { content } from '../content.ts';
import { PresaleCountdown } from './presale-countdown.tsx';
import { SocialLinks } from './social-links.tsx';

export function PresaleBanner({ presale, words: all }: { presale?: PresaleProps | undefined; words: Messages }) {
  const words = all.pageChrome;
  return (
    <section className="banner" aria-labelledby="banner-title">
      <h2 id="banner-title">{`${content.banner.headline} ${content.banner.year}`}</h2>
      {presale ? (
        <PresaleCountdown presale={presale} words={all} />
      ) : (
        <p className="banner-status">{words.comingSoon}</p>
      )}
      {content.contractAddress ? (
        <p className="banner-contract">
          {words.contractAddress} <code className="contract-address">{content.contractAddress}</code>
        </p>
      ) : null}
      <SocialLinks words={words} />
    </section>
  );
}
