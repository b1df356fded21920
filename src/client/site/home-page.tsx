import type { SignupView } from '../../shared/signup-schema.ts';
import type { PresaleProps } from '../../shared/site-pages.ts';
import { Closing } from './sections/closing.tsx';
import { Faq } from './sections/faq.tsx';
import { Hero } from './sections/hero.tsx';
import { PresaleBanner } from './sections/presale-banner.tsx';
import { StayUpdated } from './sections/stay-updated.tsx';

export function HomePage({ signup, presale }: { signup?: SignupView | undefined; presale?: PresaleProps | undefined }) {
  return (
    <>
      <Hero />
      <PresaleBanner presale={presale} />
      <Faq />
      <StayUpdated initial={signup} />
      <Closing />
    </>
  );
}
