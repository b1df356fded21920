import type { Messages } from '../../../content/messages/messages.ts';
import type { SignupView } from '../../shared/signup-schema.ts';
import type { PresaleProps, WalletProps } from '../../shared/site-pages.ts';
import { AllowlistBlock } from './sections/allowlist-block.tsx';
import { Closing } from './sections/closing.tsx';
import { Faq } from './sections/faq.tsx';
import { Hero } from './sections/hero.tsx';
import { PresaleBanner } from './sections/presale-banner.tsx';
import { StayUpdated } from './sections/stay-updated.tsx';

export function HomePage({
  signup,
  presale,
  wallet,
  words,
}: {
  signup?: SignupView | undefined;
  presale?: PresaleProps | undefined;
  wallet?: WalletProps | undefined;
  words: Messages;
}) {
  return (
    <>
      <Hero words={words.pageChrome} />
      <PresaleBanner presale={presale} words={words} />
      {wallet ? <AllowlistBlock wallet={wallet} /> : null}
      <Faq words={words.pageChrome} />
      <StayUpdated initial={signup} words={words.signup} />
      <Closing words={words.pageChrome} />
    </>
  );
}
