import type { SignupView } from '../../../shared/signup-schema.ts';
import { usePage } from '../page-context.tsx';
import { Island } from '../islands/island.tsx';
import { SignupForm } from './signup-form.tsx';

// The heading and the words around the form are plain HTML; only the form is an island.
export function StayUpdated({ initial, invite }: { initial?: SignupView | undefined; invite?: string | undefined }) {
  const { content, words, locale } = usePage();
  return (
    <section className="stay-updated" id="stay-updated" aria-labelledby="stay-updated-title">
      <h2 id="stay-updated-title">{content.stayUpdated.heading}</h2>
      <p>{content.stayUpdated.intro}</p>
      <Island name="signup" props={{ ...(initial ? { initial } : {}), locale, ...(invite ? { invite } : {}) }}>
        <SignupForm initial={initial} words={words.signup} locale={locale} invite={invite} />
      </Island>
    </section>
  );
}
