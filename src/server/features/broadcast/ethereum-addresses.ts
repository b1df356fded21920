import { toChecksumAddress } from '../../../shared/eth-address.ts';
import { HIDDEN, skeleton } from './text-skeleton.ts';

// The guard's Ethereum addresses and ENS names (broadcast-guard.ts): any address but the official
// one, however it is disguised (lookalike letters per Unicode TS #39, fullwidth forms, split by
// spaces, marks or lines, without 0x, encoded), and every ENS name, are refused.

/** A few items in a sentence; the rest counted, so one long message stays readable. */
const listed = (items: string[], max = 5): string =>
  items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');

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

export function addressProblems(texts: string[], official: string | null): string[] {
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
export function ensNames(texts: string[]): string[] {
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
