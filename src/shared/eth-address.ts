import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

// Ethereum addresses: the EIP-55 checksum (the content file's contractAddress) and the address
// guard of a broadcast (docs/decisions/0015-launch-broadcast.md). The hash comes from
// @noble/hashes; EIP-55 itself is a few lines no library here does on its own without a whole
// Ethereum client.

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 mixed-case form of an address (any case in). */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const c = hex[i] ?? '';
    out += Number.parseInt(hash[i] ?? '0', 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/** Why an address is not a valid EIP-55 address, or null when it is. */
export function checksumProblem(address: string): string | null {
  if (!ADDRESS.test(address)) return 'must be 0x followed by 40 hexadecimal characters';
  if (toChecksumAddress(address) !== address) {
    return `fails its EIP-55 checksum (mixed case must match exactly; the checksummed form of this address is ${toChecksumAddress(address)}; check it against the deployed contract before copying)`;
  }
  return null;
}

// What may sit between the characters of an address in Markdown and still show as one address
// (or be copied as one): emphasis and code marks, escapes, whitespace and invisible characters.
// Removing them can only find more addresses, never fewer: the guard errs towards refusing.
const FILLER = /[\s*_~`\\|>#[\]()<>'"\u00ad\u200b-\u200f\u2060\ufeff]/g;
const FOUND = /0x[0-9a-f]{40}/gi;

/** The distinct Ethereum addresses (lower-cased) a text would show a reader. */
export function addressesIn(...texts: string[]): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    for (const variant of [text, text.replace(FILLER, '')]) {
      for (const m of variant.matchAll(FOUND)) found.add(m[0].toLowerCase());
    }
  }
  return [...found];
}

/**
 * Why a broadcast may not go out because of the addresses in it, or null when it may. The only
 * address a broadcast may carry is the official contract address (in any letter case: it is the
 * same address); with none set, none at all: a list email is exactly where a scammer's address
 * would do the most harm, and the page promises "never trust an address sent to you".
 */
export function addressGuardProblem(official: string | null, ...texts: string[]): string | null {
  const others = addressesIn(...texts).filter((a) => a !== official?.toLowerCase());
  if (others.length === 0) return null;
  const shown = others.map((a) => toChecksumAddress(a)).join(', ');
  return official
    ? `This broadcast contains an Ethereum address (${shown}) that is not the official contract address ${official}; remove it: subscribers are told never to trust any other address sent to them.`
    : `This broadcast contains an Ethereum address (${shown}), but no official contract address is set in the content file yet; remove it: subscribers are told never to trust an address sent to them.`;
}
