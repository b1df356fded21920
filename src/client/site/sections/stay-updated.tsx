import type { SignupMessages } from '../../../../content/messages/en/signup.ts';
import type { SignupView } from '../../../shared/signup-schema.ts';
import { content } from '../content.ts';
import { Island } from '../islands/island.tsx';
import { SignupForm } from './signup-form.tsx';

// The heading and the words around the form are plain HTML; only the form is an island.
export function StayUpdated({ initial, words }: { initial?: SignupView | undefined; words: SignupMessages }) {
  return (
    <section className="stay-updated" id="stay-updated" aria-labelledby="stay-updated-title">
      <h2 id="stay-updated-title">{content.stayUpdated.heading}</h2>
      <p>{content.stayUpdated.intro}</p>
      <Island name="signup" props={initial ? { initial } : {}}>
        <SignupForm initial={initial} words={words} />
      </Island>
    </section>
  );
}
