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
}: {
  signup?: SignupView | undefined;
  presale?: PresaleProps | undefined;
  wallet?: WalletProps | undefined;
}) {
  return (
    <>
      <Hero />
      <PresaleBanner presale={presale} />
      {wallet ? <AllowlistBlock wallet={wallet} /> : null}
      <Faq />
      <StayUpdated initial={signup} />
      <Closing />
    </>
  );
}
