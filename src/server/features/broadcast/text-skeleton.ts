import unhomoglyph from 'unhomoglyph';

// How the broadcast guard reads text the way a reader sees it: what is invisible, and what each
// character looks like. Shared by the Ethereum address guard (ethereum-addresses.ts) and the other
// chains' (other-chain-addresses.ts). docs/decisions/0027-broadcast-guard.md

// Unicode properties, not a hand list: format characters (Cf: zero-width, bidi controls,
// invisible operators, tags), default-ignorable code points (variation selectors, Hangul fillers,
// the combining grapheme joiner…), private-use and unassigned code points (fonts show them as
// nothing or as a box), lone surrogates, and control characters but tab and line breaks.
export const HIDDEN = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Co}\p{Cn}\p{Cs}]|[^\P{Cc}\t\n\r]/gu;

// A character's skeleton (Unicode TS #39, the published confusables data shipped by
// unhomoglyph), or, for a character that data leaves alone, the skeleton of its NFKC form
// (fullwidth forms, circled and superscript digits become ASCII). ASCII is kept as it
// is: TS #39 also maps |, `, " and % to letters, which would make every
// Markdown table and percentage look like address digits.
const skeletons = new Map<string, string>();
export function skeleton(c: string): string {
  if (c.length === 1 && c < '\u0080') return c;
  let s = skeletons.get(c);
  if (s === undefined) {
    // The confusables data first (it knows ſ reads as f, where NFKC makes it s), then NFKC.
    const direct = unhomoglyph(c);
    s = direct !== c ? direct : Array.from(c.normalize('NFKC'), (n) => (n < '\u0080' ? n : unhomoglyph(n))).join('');
    if (skeletons.size < 10_000) skeletons.set(c, s);
  }
  return s;
}
