// Words with a little markup inside a sentence (an address as code, a link), kept as parts so a
// translation can move them: a part is text, `{ code }` (shown as code) or `{ link, href }`.
// src/client/site/rich-text.tsx renders them; the markup is ours, the text is the message file's.

export type RichPart = string | { code: string } | { link: string; href: string };
export type RichText = readonly RichPart[];
