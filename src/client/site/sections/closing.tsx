import { usePage } from '../page-context.tsx';
import { SocialLinks } from './social-links.tsx';

export function Closing() {
  const { content } = usePage();
  return (
    <section className="closing" aria-labelledby="closing-title">
      <h2 id="closing-title">{content.closingLine}</h2>
      <SocialLinks />
    </section>
  );
}
