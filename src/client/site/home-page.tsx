import type { Messages } from '../../../content/messages/catalog.ts';
import type { SignupView } from '../../shared/signup-schema.ts';
import type { PresaleProps } from '../../shared/site-pages.ts';
import { Closing } from './sections/closing.tsx';
import { Faq } from './sections/faq.tsx';
import { Hero } from './sections/hero.tsx';
import { PresaleBanner } from './sections/presale-banner.tsx';
import { StayUpdated } from './sections/stay-updated.tsx';

export function HomePage({
  signup,
  presale,
  words,
}: {
  signup?: SignupView | undefined;
  presale?: PresaleProps | undefined;
  words: Messages;
}) {
  return (
    <>
      <Hero words={words.pageChrome} />
      <PresaleBanner presale={presale} words={words} />
      <Faq words={words.pageChrome} />
      <StayUpdated initial={signup} words={words.signup} />
      <Closing words={words.pageChrome} />
    </>
  );
}
