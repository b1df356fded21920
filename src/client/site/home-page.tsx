import { Closing } from './sections/closing.tsx';
import { Faq } from './sections/faq.tsx';
import { Hero } from './sections/hero.tsx';
import { PresaleBanner } from './sections/presale-banner.tsx';
import type { SignupView } from '../../shared/signup-schema.ts';
import { StayUpdated } from './sections/stay-updated.tsx';

export function HomePage({ signup }: { signup?: SignupView | undefined }) {
  return (
    <>
      <Hero />
      <PresaleBanner />
      <Faq />
      <StayUpdated initial={signup} />
      <Closing />
    </>
  );
}
