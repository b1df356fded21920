import { HIDDEN } from './text-skeleton.ts';

// The guard's first rule (broadcast-guard.ts): an invisible character is refused wherever it
// hides, since it can split an address or a domain so that no other check sees it whole. The
// refusal names the character and where it stands, so an operator can find what they cannot see.

// Which characters are refused as invisible: HIDDEN (text-skeleton.ts), by Unicode property.
const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Emoji_Modifier}]/u;

// Two exceptions keep emoji whole: VS16 right after a pictograph (❤️) and a zero-width joiner
// between two pictographs (👨‍💻). Neither can sit inside an address: its characters are never
// pictographs.
function emojiPart(chars: string[], i: number): boolean {
  const c = chars[i];
  const before = chars[i - 1] ?? '';
  if (c === '\ufe0f') return PICTOGRAPH.test(before);
  if (c === '\u200d') return (PICTOGRAPH.test(before) || before === '\ufe0f') && PICTOGRAPH.test(chars[i + 1] ?? '');
  return false;
}

// Names only for the words of the message; which characters are refused is the regex above.
const NAMES: Record<number, string> = {
  0x00ad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x061c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x17b4: 'KHMER VOWEL INHERENT AQ',
  0x17b5: 'KHMER VOWEL INHERENT AA',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
};

function characterName(cp: number): string {
  const u = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const named = NAMES[cp];
  if (named) return `${u} ${named}`;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return `${u} VARIATION SELECTOR-${cp - 0xfe00 + 1}`;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return `${u} VARIATION SELECTOR-${cp - 0xe0100 + 17}`;
  if (cp >= 0xe0000 && cp <= 0xe007f) return `${u}, a TAG character`;
  const c = String.fromCodePoint(cp);
  if (/\p{Cc}/u.test(c)) return `${u}, a control character`;
  if (/\p{Co}/u.test(c)) return `${u}, a private-use character`;
  if (/\p{Cn}/u.test(c)) return `${u}, an unassigned code point`;
  if (/\p{Cs}/u.test(c)) return `${u}, half of a broken character`;
  return `${u}, an invisible formatting character`;
}

/** "The message contains an invisible character (…) on line 2 after “…”; remove it." per kind. */
export function hiddenCharacters(text: string, place: string, lines: boolean, decoded = false): string[] {
  const chars = Array.from(text);
  const found = new Map<number, { count: number; where: string }>();
  let offset = 0;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] ?? '';
    HIDDEN.lastIndex = 0;
    if (HIDDEN.test(c) && !emojiPart(chars, i)) {
      const cp = c.codePointAt(0) ?? 0;
      const seen = found.get(cp);
      if (seen) seen.count += 1;
      else found.set(cp, { count: 1, where: whereIn(text, offset, lines) });
    }
    offset += c.length;
  }
  return [...found].map(([cp, { count, where }]) => {
    const how = decoded ? ', written in code (an HTML entity or %-encoding),' : '';
    return count === 1
      ? `${place} contains an invisible character (${characterName(cp)})${how} ${where}; remove it.`
      : `${place} contains ${count} invisible characters (${characterName(cp)})${how}, the first ${where}; remove them.`;
  });
}

function whereIn(text: string, offset: number, lines: boolean): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const line = text.slice(0, offset).split('\n').length;
  const before = text.slice(lineStart, offset).replace(HIDDEN, '').trimStart();
  const on = lines && text.includes('\n') ? `on line ${line} ` : '';
  if (!before.trim()) return on ? `at the start of line ${line}` : 'at the start';
  const shown = before.length > 24 ? `…${before.slice(-24)}` : before;
  return `${on}after “${shown}”`;
}
