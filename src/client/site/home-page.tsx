import type { SignupView } from '../../shared/signup-schema.ts';
import type { PresaleProps, TermsProps, WalletProps } from '../../shared/site-pages.ts';
import { AllowlistBlock } from './sections/allowlist-block.tsx';
import { Closing } from './sections/closing.tsx';
import { Faq } from './sections/faq.tsx';
import { Hero } from './sections/hero.tsx';
import { PresaleBanner } from './sections/presale-banner.tsx';
import { InvitedLine } from './sections/invited-line.tsx';
import { StayUpdated } from './sections/stay-updated.tsx';

export function HomePage({
  signup,
  presale,
  wallet,
  invite,
  terms,
}: {
  signup?: SignupView | undefined;
  presale?: PresaleProps | undefined;
  wallet?: WalletProps | undefined;
  /** The code of the friend's invite link the visitor came through. */
  invite?: string | undefined;
  terms?: TermsProps | undefined;
}) {
  return (
    <>
      {invite ? <InvitedLine /> : null}
      <Hero />
      <PresaleBanner presale={presale} />
      {wallet ? <AllowlistBlock wallet={wallet} terms={terms} /> : null}
      <Faq />
      <StayUpdated initial={signup} invite={invite} />
      <Closing />
    </>
  );
}
