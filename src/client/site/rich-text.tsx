import type { RichText } from '../../shared/messages/rich-text.ts';

/** A message's words with their bits of markup: text as text, `{ code }` as code, `{ link }` as a link. */
export function Rich({ text, codeClassName }: { text: RichText; codeClassName?: string }) {
  return text.map((part, i) =>
    typeof part === 'string' ? (
      part
    ) : 'code' in part ? (
      <code key={i} className={codeClassName}>
        {part.code}
      </code>
    ) : (
      <a key={i} href={part.href}>
        {part.link}
      </a>
    ),
  );
}
