import { content } from '../content.ts';
import { SocialLinks } from './social-links.tsx';

export function Closing() {
  return (
    <section className="closing" aria-labelledby="closing-title">
      <h2 id="closing-title">{content.closingLine}</h2>
      <SocialLinks />
    </section>
  );
}
