import { BECH32_DATA, chainAddressOf, type ChainAddress } from '../../../shared/chain-addresses.ts';
import { HIDDEN, skeleton } from './text-skeleton.ts';

// The broadcast guard's second half for addresses: other chains' (Bitcoin, Solana, ICAP and the
// base58check and bech32 families, src/shared/chain-addresses.ts). "Send SOL to …" must be
// refused as surely as a foreign 0x address, with the same disguises seen through: invisible
// characters are dropped (they are refused on their own anyway), every character is read as its
// skeleton (lookalike letters, NFKC's fullwidth and mathematical forms), and an address with a
// checksum is found even when split into pieces by spaces, dashes or line breaks. An address the
// content file lists as official (otherChainAddresses) passes, written exactly and on its own.
// docs/decisions/0027-broadcast-guard.md

const ASCII_ALNUM = /^[A-Za-z0-9]$/;
const IS_HIDDEN = new RegExp(HIDDEN.source, 'u');
/**
 * How many pieces an address may be split into (a taproot address in groups of four is 16), and
 * how much may stand between two of them.
 */
const MAX_PIECES = 24;
const MAX_GAP = 3;
/** Longer than any address (a Lightning invoice is longer, and is found unsplit). */
const MAX_JOINED = 120;
/** The longest base58check or ICAP address, and the longest bech32 prefix looked for across pieces. */
const MAX_BASE58CHECK = 35;
const MAX_HRP = 16;

interface Token {
  text: string;
  /** Where it starts and ends in the raw text. */
  at: number;
  end: number;
  /** The folded characters between it and the next token ("" for the last). */
  gap: string;
}

/** Runs of ASCII letters and digits in the text as a reader sees it, with their raw offsets. */
function tokens(raw: string): Token[] {
  const out: Token[] = [];
  let current: Token | null = null;
  let at = 0;
  for (const c of raw) {
    const end = at + c.length;
    if (!IS_HIDDEN.test(c)) {
      for (const s of skeleton(c)) {
        if (ASCII_ALNUM.test(s)) {
          if (!current || current.gap) {
            current = { text: '', at, end, gap: '' };
            out.push(current);
          }
          current.text += s;
          current.end = end;
        } else if (current) current.gap += s;
      }
    }
    at = end;
  }
  return out;
}

interface Found extends ChainAddress {
  /** Written as it reads, in one piece, with nothing disguised. */
  exact: boolean;
}

/**
 * chainAddressOf, remembered for one guard's run: the guard reads the same words several times
 * (as typed, rendered, decoded), and a body of one short word repeated would otherwise decode the
 * same joined string thousands of times.
 */
type Recognise = (s: string, checksummedOnly: boolean) => ChainAddress | null;
function remembered(): Recognise {
  const seen = new Map<string, ChainAddress | null>();
  return (s, checksummedOnly) => {
    const key = `${checksummedOnly ? 1 : 0}${s}`;
    let hit = seen.get(key);
    if (hit === undefined) {
      hit = chainAddressOf(s, checksummedOnly);
      if (seen.size < 100_000) seen.set(key, hit);
    }
    return hit;
  };
}

function addressesIn(raw: string, recognise: Recognise): Found[] {
  const found: Found[] = [];
  const list = tokens(raw);
  for (let i = 0; i < list.length; i++) {
    const first = list[i];
    if (!first) continue;
    let joined = first.text;
    for (let j = i; j < list.length && j - i < MAX_PIECES && joined.length <= MAX_JOINED; j++) {
      const last = list[j];
      if (!last) break;
      if (j > i) joined += last.text;
      // Only an address with a checksum is looked for across pieces: a shape alone would match
      // words run together.
      const hit = recognise(joined, j > i);
      if (hit) {
        const written = raw.slice(first.at, last.end);
        const exact =
          j === i &&
          (hit.kind === 'bech32' || hit.kind === 'bitcoin'
            ? written.toLowerCase() === hit.address.toLowerCase()
            : written === hit.address);
        found.push({ ...hit, exact });
        i = j;
        break;
      }
      if (last.gap.length > MAX_GAP || last.gap.includes('\n\n')) break;
      // Longer than base58check or ICAP can be, and not a short bech32 prefix (bc, tb, ltc,
      // cosmos, lnbc…), a "1" and bech32's alphabet since: no later piece can make it an address.
      if (joined.length > MAX_BASE58CHECK) {
        const sep = joined.slice(0, MAX_HRP + 1).lastIndexOf('1');
        if (sep < 1 || !BECH32_DATA.test(joined.slice(sep + 1))) break;
      }
    }
  }
  return found;
}

/** The address an ICAP direct form (XE, 2 digits, 30 or 31 base-36 digits) stands for, lower case. */
function icapToHex(icap: string): string | null {
  const bban = icap.slice(4);
  if (bban.length < 30) return null;
  let n = 0n;
  for (const c of bban) n = n * 36n + BigInt(Number.parseInt(c, 36));
  return n.toString(16).padStart(40, '0');
}

const same = (a: Found, b: string) =>
  a.kind === 'bech32' || a.kind === 'bitcoin' ? a.address.toLowerCase() === b.toLowerCase() : a.address === b;

/** Each other chain's address in the texts, as sentences an operator can act on. */
export function otherChainProblems(texts: string[], official: string[], officialEthereum: string | null): string[] {
  const foreign = new Map<string, string>();
  const disguised = new Map<string, string>();
  const icapOfficial = new Set<string>();
  let shapeOnly = false;
  const recognise = remembered();
  for (const text of texts) {
    for (const f of addressesIn(text, recognise)) {
      const listed = official.find((o) => same(f, o));
      if (listed) {
        if (!f.exact) disguised.set(listed, listed);
        continue;
      }
      if (f.kind === 'icap' && officialEthereum && icapToHex(f.address) === officialEthereum.slice(2).toLowerCase()) {
        icapOfficial.add(f.address);
        continue;
      }
      const key = f.address.toLowerCase();
      // Named once; as disguised if it is anywhere.
      if (foreign.has(key) && f.exact) continue;
      const how = f.exact ? '' : ' (written with lookalike or hidden characters, or split into pieces)';
      foreign.set(key, `${f.network} ${f.address}${how}`);
      if (f.kind === 'solana') shapeOnly = true;
    }
  }
  const problems: string[] = [];
  const only = officialEthereum
    ? `the only address a broadcast may carry is the official contract address ${officialEthereum}`
    : 'no official contract address is set in the content file yet';
  if (foreign.size) {
    const items = [...foreign.values()];
    const shown = items.length > 5 ? `${items.slice(0, 5).join('; ')}; and ${items.length - 5} more` : items.join('; ');
    problems.push(
      `This broadcast contains ${foreign.size === 1 ? 'an address' : 'addresses'} on another chain (${shown}); ${only}, and subscribers are told never to trust any other address sent to them. Remove ${foreign.size === 1 ? 'it' : 'them'}.${
        shapeOnly
          ? ' A Solana address has no checksum and is known by its shape (32 to 44 letters and digits); if that is not an address, break it up with spaces.'
          : ''
      }`,
    );
  }
  for (const address of icapOfficial) {
    problems.push(
      `The official contract address is written in its ICAP form (“${address}”); write it exactly as ${officialEthereum ?? ''} (or all in lower case), which every wallet reads.`,
    );
  }
  for (const address of disguised.keys()) {
    problems.push(
      `The official address ${address} is written other than exactly: split, or with lookalike or hidden characters. Write it exactly as the content file has it, on its own.`,
    );
  }
  return problems;
}
