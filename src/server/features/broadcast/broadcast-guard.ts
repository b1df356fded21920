import { domainToASCII } from 'node:url';
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import type { SiteContent } from '../../../shared/content-schema.ts';
import { toChecksumAddress } from '../../../shared/eth-address.ts';
import { renderBodyWithTokens, visibleText } from './broadcast-render.ts';
import { otherChainProblems } from './other-chain-addresses.ts';
import { HIDDEN, skeleton } from './text-skeleton.ts';

// The one guard a launch broadcast passes before it may go out (docs/decisions/0027-broadcast-guard.md,
// amending 0015). Whoever holds one operator's session can mail every subscriber, so the guard
// refuses, in words, anything that could carry a reader to a scammer:
//  - invisible, format, joining, bidi, tag and variation-selector characters, anywhere;
//  - any Ethereum address but the official one, however it is disguised (lookalike letters per
//    Unicode TS #39, fullwidth forms, split by spaces, marks or lines, without 0x, encoded), and
//    any ENS name;
//  - any link, image or written domain outside an allow-list taken from the content file.

export interface BroadcastPolicy {
  /** The content file's official contract address (EIP-55), or null: then no address passes. */
  officialAddress: string | null;
  /** PUBLIC_URL: the site's own origin, the only place images may come from. */
  siteUrl: string;
  /** Full URLs in the content file (socials, the presale page): a link may go to their hosts. */
  linkUrls: string[];
  /** The block explorer (content explorerUrl): a link there must be to the official address's page. */
  explorerUrl: string;
  /** The content file's official addresses on other chains (otherChainAddresses): they pass as written. */
  otherChainAddresses?: string[];
}

/** The policy the content file and PUBLIC_URL set. */
export function broadcastPolicyOf(content: SiteContent, publicUrl: string): BroadcastPolicy {
  return {
    officialAddress: content.contractAddress,
    siteUrl: publicUrl,
    linkUrls: [
      content.social.twitter.url,
      content.social.telegram.url,
      ...(content.presaleUrl ? [content.presaleUrl] : []),
    ],
    explorerUrl: content.explorerUrl,
    otherChainAddresses: content.otherChainAddresses,
  };
}

/** Every reason the draft may not go out, each a sentence or two an operator can act on. */
export function broadcastProblems(draft: { subject: string; body: string }, policy: BroadcastPolicy): string[] {
  const rendered = renderBodyWithTokens(draft.body);
  const shown = visibleText(rendered.html);
  const targets = linksAndImages(rendered.tokens);
  const problems: string[] = [];
  const add = (p: string) => {
    if (!problems.includes(p)) problems.push(p);
  };

  // 1. Invisible characters: refused outright, wherever they hide.
  hiddenCharacters(draft.subject, 'The subject', false).forEach(add);
  const inBody = hiddenCharacters(draft.body, 'The message', true);
  inBody.forEach(add);
  const decodedPlaces = [rendered.text, shown, ...targets.flatMap((t) => [decodeAll(t.url), t.title])];
  if (!inBody.length) {
    // Only written as an entity or %-code: markdown-it or the mail program decodes it.
    for (const text of decodedPlaces) hiddenCharacters(text, 'The message', false, true).forEach(add);
  }

  // 2. Addresses and ENS names, in everything a reader sees or a link carries, decoded.
  const texts = [
    draft.subject,
    decodeAll(draft.subject),
    draft.body,
    rendered.text,
    decodeAll(rendered.text),
    shown,
    ...targets.flatMap((t) => [t.url, decodeAll(t.url), t.title]),
  ];
  addressProblems(texts, policy.officialAddress).forEach(add);
  ensNames(texts).forEach(add);
  // Other chains' addresses (Bitcoin, Solana, ICAP…), but the content file's own.
  otherChainProblems(texts, policy.otherChainAddresses ?? [], policy.officialAddress).forEach(add);

  // 3. Links and images on the allow-list; link text that reads as an address must be that address.
  const hosts = allowed(policy);
  const reported = new Set<string>();
  for (const t of targets) {
    const p =
      t.kind === 'image' ? imageProblem(t, hosts, reported) : linkProblem(t, hosts, policy.officialAddress, reported);
    if (p) add(p);
  }
  // 4. A domain written in the text is as good as a link (mail programs make it one).
  for (const text of [draft.subject, rendered.text, shown, ...targets.map((t) => t.title)]) {
    for (const host of writtenHosts(text)) {
      if (reported.has(host) || hosts.isAllowed(host)) continue;
      reported.add(host);
      add(
        `The text mentions ${host}, which is not ${hosts.described}; a broadcast may name no other site (mail programs turn a written domain into a link).`,
      );
    }
  }
  return problems;
}

const SHOWN_PROBLEMS = 10;
const listed = (items: string[], max = 5) =>
  items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');

/** Why the draft may not go out (one sentence, or a numbered list of them), or null when it may. */
export function broadcastRefusal(draft: { subject: string; body: string }, policy: BroadcastPolicy): string | null {
  const problems = broadcastProblems(draft, policy);
  if (problems.length === 0) return null;
  if (problems.length === 1) return problems[0] ?? null;
  // The first ten: an operator fixes those and saves again; a page of reasons helps nobody.
  const shown = problems.slice(0, SHOWN_PROBLEMS).map((p, i) => `${i + 1}. ${p}`);
  const more = problems.length - SHOWN_PROBLEMS;
  return [
    `This broadcast cannot go out, for ${problems.length} reasons:`,
    ...shown,
    ...(more > 0 ? [`…and ${more} more; fix these and save again to see the rest.`] : []),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Invisible characters.

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
function hiddenCharacters(text: string, place: string, lines: boolean, decoded = false): string[] {
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

// ---------------------------------------------------------------------------------------------
// Addresses.

// Each character read as its skeleton: skeleton() (text-skeleton.ts, Unicode TS #39 and NFKC).

// What each skeleton character reads as, as an address digit: the hex digits themselves, and
// O, I, l, which TS #39 gives as the skeletons of 0 and 1.
const HEX: Record<string, string> = { O: '0', I: '1', l: '1' };
for (const c of '0123456789abcdefABCDEF') HEX[c] = c;
const ALNUM = /[\p{L}\p{N}]/u;

type Piece =
  | { kind: 'hex'; digit: string; exact: boolean; at: number; end: number }
  | { kind: 'x'; exact: boolean; at: number; end: number }
  | { kind: 'sep' }
  | { kind: 'break' };

function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  let at = 0;
  for (const c of text) {
    const end = at + c.length;
    for (const s of skeleton(c)) {
      const digit = HEX[s];
      const last = out.at(-1);
      if (digit !== undefined) out.push({ kind: 'hex', digit, exact: c === s && s === digit, at, end });
      else if ((s === 'x' || s === 'X') && last?.kind === 'hex' && last.digit === '0')
        out.push({ kind: 'x', exact: c === 'x', at, end });
      // A letter or digit ends a run; punctuation does, even where TS #39 gives it a letter's
      // skeleton (an em dash reads as the katakana ー): it still only separates.
      else out.push(ALNUM.test(s) && ALNUM.test(c) ? { kind: 'break' } : { kind: 'sep' });
    }
    at = end;
  }
  return out;
}

type Group = Extract<Piece, { kind: 'hex' | 'x' }>[];

/**
 * Runs of address digits: hex digits (or their lookalikes) with nothing but non-alphanumeric
 * characters between them (spaces, line breaks, punctuation, Markdown marks), split into groups
 * at those separators. Any other letter or digit ends a run, so ordinary words end it.
 */
function runs(text: string): Group[][] {
  const all: Group[][] = [];
  let run: Group[] = [];
  let group: Group = [];
  const closeGroup = () => {
    if (group.length) run.push(group);
    group = [];
  };
  const closeRun = () => {
    closeGroup();
    if (run.length) all.push(run);
    run = [];
  };
  for (const p of pieces(text)) {
    if (p.kind === 'hex' || p.kind === 'x') group.push(p);
    else if (p.kind === 'sep') closeGroup();
    else closeRun();
  }
  closeRun();
  return all;
}

/** The official address, written exactly: 0x and its 40 digits in plain ASCII, EIP-55 or lower case. */
function isOfficial(group: Group, official: string | null): boolean {
  if (!official || group.length !== 42) return false;
  const [zero, x, ...digits] = group;
  if (zero?.kind !== 'hex' || !zero.exact || zero.digit !== '0' || x?.kind !== 'x' || !x.exact) return false;
  if (!digits.every((d) => d.kind === 'hex' && d.exact)) return false;
  const hex = digits.map((d) => (d.kind === 'hex' ? d.digit : '')).join('');
  return hex === official.slice(2) || hex === official.slice(2).toLowerCase();
}

// The digits a run holds once the exact official address is taken out: the 0 of each 0x is a
// prefix, not a digit.
function digitsOf(groups: Group[]): string {
  let out = '';
  for (const g of groups) {
    for (let i = 0; i < g.length; i++) {
      const p = g[i];
      if (p?.kind === 'hex' && g[i + 1]?.kind !== 'x') out += p.digit;
    }
  }
  return out.toLowerCase();
}

function digitsAfterPrefix(groups: Group[]): string | null {
  const gi = groups.findLastIndex((g) => g.some((p) => p.kind === 'x'));
  if (gi < 0) return null;
  const g = groups[gi] ?? [];
  const xi = g.findLastIndex((p) => p.kind === 'x');
  return digitsOf([g.slice(xi + 1), ...groups.slice(gi + 1)]);
}

const excerptOf = (text: string, groups: Group[]): string => {
  const first = groups[0]?.[0];
  const last = groups.at(-1)?.at(-1);
  const raw = first && last ? text.slice(first.at, last.end) : '';
  const clean = raw.replace(HIDDEN, '').replace(/\s+/g, ' ');
  return clean.length > 72 ? `${clean.slice(0, 60)}…${clean.slice(-8)}` : clean;
};

function addressProblems(texts: string[], official: string | null): string[] {
  const foreign = new Map<string, string>();
  const disguised: string[] = [];
  const longer: string[] = [];
  const officialLower = official?.slice(2).toLowerCase() ?? null;
  for (const text of texts) {
    for (const run of runs(text)) {
      const rest = run.filter((g) => !isOfficial(g, official));
      const digits = digitsOf(rest);
      if (digits.length < 40) continue;
      const excerpt = excerptOf(text, rest);
      // What a reader takes for the address: 0x and the 40 digits after it, even when a word
      // of hex letters ("cafe", "bad") stands before it.
      const afterPrefix = digitsAfterPrefix(rest);
      const address = digits.length === 40 ? digits : afterPrefix?.length === 40 ? afterPrefix : null;
      if (address && address === officialLower) disguised.push(excerpt);
      else if (address) foreign.set(address, excerpt);
      else if (officialLower && digits.includes(officialLower)) disguised.push(excerpt);
      else longer.push(excerpt);
    }
  }
  const problems: string[] = [];
  if (foreign.size) {
    const shown = listed([...foreign.keys()].map((d) => toChecksumAddress(`0x${d}`)));
    problems.push(
      official
        ? `This broadcast contains an Ethereum address (${shown}) that is not the official contract address ${official}; remove it: subscribers are told never to trust any other address sent to them.`
        : `This broadcast contains an Ethereum address (${shown}), but no official contract address is set in the content file yet; remove it: subscribers are told never to trust an address sent to them.`,
    );
  }
  for (const e of new Set(disguised)) {
    problems.push(
      `The official contract address is written other than exactly (“${e}”): split, with lookalike or encoded characters, without 0x, in another letter case, or with more digits attached. Write it exactly as ${official ?? ''} (or all in lower case), on its own.`,
    );
  }
  // A longer run is most often the same address seen in its encoded form (%66%42…): named
  // once it is the only finding, so the operator reads one reason per thing to remove.
  for (const e of problems.length || disguised.length ? [] : new Set(longer)) {
    problems.push(
      `This broadcast contains a run of 40 or more hexadecimal digits (“${e}”), which may hide an Ethereum address; ${official ? `the only address a broadcast may carry is ${official}` : 'no official contract address is set in the content file yet'}. If these are numbers, put words (such as units) between them.`,
    );
  }
  return problems;
}

// ENS names resolve to whatever address their owner sets, later, out of our sight: none passes.
// The dot must touch "eth": "… in USDT. ETH also works" is prose, not a name. Found from the
// ".eth" backwards (at most 255 characters, a DNS name's length), so a long run of dotted
// letters costs linear time, not a regex's backtracking.
const ENS_END = /\.eth(?![\p{L}\p{N}_-])/giu;
const LABEL_CHAR = /[\p{L}\p{N}_.-]/u;
function ensNames(texts: string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) {
    const plain = Array.from(text.replace(HIDDEN, ''), skeleton)
      .join('')
      .replace(/[\u3002\uff61]/g, '.');
    for (const m of plain.matchAll(ENS_END)) {
      let start = m.index;
      while (start > 0 && m.index - start < 255 && LABEL_CHAR.test(plain[start - 1] ?? '')) start -= 1;
      const name = plain.slice(start, m.index).replace(/^[.]+/, '');
      if (/[\p{L}\p{N}_-]$/u.test(name)) names.add(`${name}.eth`.toLowerCase());
    }
  }
  if (!names.size) return [];
  return [
    `This broadcast contains an ENS name (${listed([...names])}); an ENS name points to whatever address its owner sets, so a broadcast may carry none: give the official contract address instead.`,
  ];
}

// ---------------------------------------------------------------------------------------------
// Links and images.

interface Target {
  kind: 'link' | 'image';
  url: string;
  /** The link's text or the image's description, as a reader sees it. */
  text: string;
  /** The title a mail program shows on hover, decoded by markdown-it. */
  title: string;
}

function linksAndImages(tokens: Token[]): Target[] {
  const out: Target[] = [];
  for (const t of tokens) {
    if (t.type !== 'inline') continue;
    let open: Target | null = null;
    for (const c of t.children ?? []) {
      if (c.type === 'link_open')
        open = { kind: 'link', url: c.attrGet('href') ?? '', text: '', title: c.attrGet('title') ?? '' };
      else if (c.type === 'link_close') {
        if (open) out.push(open);
        open = null;
      } else if (c.type === 'image') {
        out.push({ kind: 'image', url: c.attrGet('src') ?? '', text: c.content, title: c.attrGet('title') ?? '' });
        if (open) open.text += c.content;
      } else if (open && (c.type === 'text' || c.type === 'code_inline')) open.text += c.content;
      else if (open && (c.type === 'softbreak' || c.type === 'hardbreak')) open.text += ' ';
    }
  }
  return out;
}

// markdown-it's own helpers (its dependencies, not ours): entities and backslash escapes, then
// %-codes, until nothing changes (so %2535 is decoded twice).
const { unescapeAll, lib } = new MarkdownIt().utils;
function decodeAll(s: string): string {
  let out = s;
  for (let i = 0; i < 4; i++) {
    const next = lib.mdurl.decode(unescapeAll(out), '');
    if (next === out) break;
    out = next;
  }
  return out;
}

const bare = (host: string) => host.toLowerCase().replace(/^www\./, '');

interface Allowed {
  site: URL;
  explorer: string;
  isAllowed(host: string): boolean;
  described: string;
}

function allowed(policy: BroadcastPolicy): Allowed {
  const site = new URL(policy.siteUrl);
  const explorer = bare(new URL(policy.explorerUrl).hostname);
  const others = [...new Set(policy.linkUrls.map((u) => bare(new URL(u).hostname)))].filter(
    (h) => h !== bare(site.hostname),
  );
  const all = new Set([bare(site.hostname), ...others, explorer]);
  return {
    site,
    explorer,
    isAllowed: (host) => all.has(bare(host)),
    described: `this site (${site.hostname}) or a site the content file lists (${[...others, `${explorer} for the contract’s page`].join(', ')})`,
  };
}

const named = (t: Target) => {
  const text = t.text.replace(HIDDEN, '').replace(/\s+/g, ' ').trim();
  const shown = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return t.kind === 'image' ? (shown ? `The image “${shown}”` : 'An image') : shown ? `The link “${shown}”` : 'A link';
};
const shortUrl = (u: string) => (u.length > 80 ? `${u.slice(0, 77)}…` : u);

function imageProblem(t: Target, hosts: Allowed, reported: Set<string>): string | null {
  const where = (() => {
    try {
      const u = new URL(t.url);
      if (u.hostname) reported.add(u.hostname.toLowerCase());
      return u.origin === hosts.site.origin
        ? null
        : u.protocol === 'data:'
          ? 'is embedded as data: in the message'
          : `is loaded from ${u.protocol === 'https:' || u.protocol === 'http:' ? u.host : u.protocol}`;
    } catch {
      return `has no full address (“${shortUrl(t.url)}”)`;
    }
  })();
  return where
    ? `${named(t)} ${where}; a broadcast may show images from this site only (${hosts.site.origin}/…): a remote image can be a scam’s QR code or a tracking pixel.`
    : null;
}

function linkProblem(t: Target, hosts: Allowed, official: string | null, reported: Set<string>): string | null {
  let url: URL;
  try {
    url = new URL(t.url);
  } catch {
    return `${named(t)} has no full address (“${shortUrl(t.url)}”); write it in full, starting with ${hosts.site.origin}/, so it works in an email.`;
  }
  if (url.protocol === 'mailto:') {
    // Only to an address at the site's own domain: a reply-to-claim address is a classic scam.
    const domain = decodeAll(url.pathname).split('@').at(-1) ?? '';
    const at = domainToASCII(domain.toLowerCase());
    if (bare(at) !== bare(hosts.site.hostname)) {
      reported.add(at);
      return `${named(t)} writes to an email address at ${at || 'an unknown domain'}; a broadcast may link only to email addresses at ${hosts.site.hostname}.`;
    }
    return mismatch(t, at);
  }
  const host = url.hostname.toLowerCase();
  const ownSite = url.origin === hosts.site.origin;
  if (!ownSite && url.protocol !== 'https:') {
    return `${named(t)} goes to a ${url.protocol} address (${shortUrl(t.url)}); a broadcast may link only to https:// addresses (write the link in full, starting with https://) on ${hosts.described}.`;
  }
  if (!ownSite && (!hosts.isAllowed(host) || url.port !== '' || bare(host) === bare(hosts.site.hostname))) {
    reported.add(host);
    return `${named(t)} goes to ${url.host} (${shortUrl(t.url)}), which is not ${hosts.described}; a broadcast may link only there.`;
  }
  if (bare(host) === hosts.explorer && !ownSite) {
    const decoded = decodeAll(t.url).toLowerCase();
    if (!official || !decoded.includes(official.toLowerCase())) {
      return `${named(t)} goes to ${host} but not to the page of the official contract address${official ? ` (${official})` : ' (none is set in the content file yet)'}; a broadcast may link to the explorer for that page only.`;
    }
  }
  return mismatch(t, host);
}

/** Link text that reads as a domain or URL must name the host the link goes to. */
function mismatch(t: Target, host: string): string | null {
  const written = writtenHosts(t.text).find((h) => bare(h) !== bare(host));
  return written
    ? `${named(t)} reads as ${written} but goes to ${host}; a link that reads as an address must go to that address.`
    : null;
}

// A domain as written in text: dot-separated labels ending in a label of two or more letters
// ("t.me", "dh-presale.xyz", "scam.com/path"), taken as the IDNA (punycode) host a mail program
// would open. ".eth" names are ENS, refused on their own. At most 16 labels before the last: the
// bound keeps a long run of dotted letters linear.
const DOMAIN =
  /(?<![\p{L}\p{N}_/-])((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,16}\p{L}{2,63})(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])/gu;
// A URL with a scheme stands for its host alone: its path ("/logo.png") names no site.
const URL_WITH_SCHEME = /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}:\/\/(?:[^\s/?#@]*@)?([^\s/?#:)\]>]+)[^\s)\]>]*/giu;
function writtenHosts(text: string): string[] {
  const plain = text
    .replace(HIDDEN, '')
    .normalize('NFKC')
    .replace(/[\u3002\uff61]/g, '.')
    .replace(URL_WITH_SCHEME, ' $1 ');
  const hosts: string[] = [];
  for (const m of plain.matchAll(DOMAIN)) {
    const name = (m[1] ?? '').toLowerCase();
    if (name.endsWith('.eth')) continue;
    const host = domainToASCII(name) || name;
    if (!hosts.includes(host)) hosts.push(host);
  }
  return hosts;
}
