import { Closing } from './sections/closing.tsx';
import { Faq } from './sections/faq.tsx';
import { Hero } from './sections/hero.tsx';
import { PresaleBanner } from './sections/presale-banner.tsx';
import { StayUpdated } from './sections/stay-updated.tsx';

export function HomePage() {
  return (
    <>
      <Hero />
      <PresaleBanner />
      <Faq />
      <StayUpdated />
      <Closing />
    </>
  );
}
