import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32, bech32m, createBase58check } from '@scure/base';

// Addresses of other chains than Ethereum, recognised in one string of ASCII letters and digits
// (the broadcast guard folds lookalikes, invisible characters and NFKC forms before asking:
// src/server/features/broadcast/other-chain-addresses.ts). A broadcast that says "send SOL to …"
// must be refused as surely as one with a foreign 0x address (docs/decisions/0027).
//
// Recognised by their own encodings, with @scure/base doing the decoding and checksums:
//  - base58check with a 21-byte payload (a version byte and a 20-byte hash): Bitcoin P2PKH (1…)
//    and P2SH (3…), their testnet forms, and every chain that copied them (Litecoin, Dogecoin,
//    Tron…). A 32-bit checksum: prose never passes by chance.
//  - bech32 / bech32m (BIP 173 / 350): Bitcoin's bc1… and tb1…, checked with the witness rules,
//    and any other human-readable part (Litecoin's ltc1…, Cosmos chains, Lightning invoices) once
//    the 30-bit checksum holds over a data part long enough to be an address.
//  - ICAP (the IBAN form of an Ethereum address, XE…): the IBAN mod-97 check.
//  - Solana: no checksum at all, only a shape: 32 to 44 base58 characters that decode to exactly
//    32 bytes (an ed25519 key), with a digit, an upper-case and a lower-case letter (a random
//    address lacks a digit once in about 1,400; words and numbers lack the rest).

type ChainAddressKind = 'bitcoin' | 'base58check' | 'bech32' | 'icap' | 'solana';

export interface ChainAddress {
  kind: ChainAddressKind;
  /** In words, for a message: "Bitcoin", "Tron", "bech32 (cosmos1…)", "Solana". */
  network: string;
  /** The address as recognised (bech32 in lower case, ICAP in upper case). */
  address: string;
}

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const base58check = createBase58check(sha256);

// Version bytes of base58check addresses whose chain we can name; any other is still refused.
const VERSIONS: Record<number, string> = {
  0x00: 'Bitcoin',
  0x05: 'Bitcoin',
  0x6f: 'Bitcoin testnet',
  0xc4: 'Bitcoin testnet',
  0x30: 'Litecoin',
  0x32: 'Litecoin',
  0x1e: 'Dogecoin',
  0x16: 'Dogecoin',
  0x41: 'Tron',
};

/** The first characters the versions above give a 21-byte payload. */
const KNOWN_FIRST = /^[13mn2LMD9AT]/;

/**
 * A base58check address: Bitcoin's legacy and P2SH forms, and their many copies; with
 * `knownOnly`, only those whose version gives one of the first characters above (a string
 * joined from pieces is tried many times over, and each decode costs tens of microseconds).
 */
function base58checkAddress(s: string, knownOnly: boolean): ChainAddress | null {
  if (s.length < 25 || s.length > 35 || !BASE58.test(s)) return null;
  if (knownOnly && !KNOWN_FIRST.test(s)) return null;
  let payload: Uint8Array;
  try {
    payload = base58check.decode(s);
  } catch {
    return null;
  }
  if (payload.length !== 21) return null;
  const network = VERSIONS[payload[0] ?? -1];
  return network?.startsWith('Bitcoin')
    ? { kind: 'bitcoin', network, address: s }
    : { kind: 'base58check', network: network ?? 'base58check', address: s };
}

const BITCOIN_HRPS: Record<string, string> = { bc: 'Bitcoin', tb: 'Bitcoin testnet', bcrt: 'Bitcoin regtest' };
/** Data characters (after the "1") below which a checksummed string is too short to be an address. */
const MIN_BECH32_DATA = 20;
/** bech32's data alphabet: asked first, so most strings are turned away before a decode. */
export const BECH32_DATA = /^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/i;

/** A bech32 or bech32m string (BIP 173, BIP 350); for Bitcoin's parts, a valid witness program too. */
function bech32Address(raw: string): ChainAddress | null {
  // One case only, by the BIP; a reader's wallet takes either.
  const s = raw.toLowerCase();
  const sep = s.lastIndexOf('1');
  if (sep < 1 || s.length - sep - 1 < MIN_BECH32_DATA || !BECH32_DATA.test(s.slice(sep + 1))) return null;
  const hrp = s.slice(0, sep);
  for (const coder of [bech32, bech32m]) {
    let words: number[];
    try {
      // Lightning invoices run longer than an address's 90 characters.
      words = coder.decode(s as `${string}1${string}`, 1023).words;
    } catch {
      continue;
    }
    const bitcoin = BITCOIN_HRPS[hrp];
    if (!bitcoin) return { kind: 'bech32', network: `bech32 (${hrp}1…)`, address: s };
    const [version, ...program] = words;
    if (version === undefined || version > 16 || (version === 0) !== (coder === bech32)) continue;
    let bytes: Uint8Array;
    try {
      bytes = coder.fromWords(program);
    } catch {
      continue;
    }
    if (bytes.length < 2 || bytes.length > 40 || (version === 0 && bytes.length !== 20 && bytes.length !== 32))
      continue;
    return { kind: 'bitcoin', network: bitcoin, address: s };
  }
  return null;
}

/** ICAP (XE, two check digits, then the address in base 36 or an institution code): mod 97 = 1. */
function icapAddress(raw: string): ChainAddress | null {
  const s = raw.toUpperCase();
  if (!/^XE\d{2}[0-9A-Z]{16,31}$/.test(s)) return null;
  const moved = s.slice(4) + s.slice(0, 4);
  let rest = 0;
  for (const c of moved) {
    const value = Number.parseInt(c, 36);
    rest = (value < 10 ? rest * 10 + value : rest * 100 + value) % 97;
  }
  return rest === 1 ? { kind: 'icap', network: 'ICAP (Ethereum’s IBAN form)', address: s } : null;
}

/** The shape of a Solana address (no checksum to check): see the top of this file. */
function solanaAddress(s: string): ChainAddress | null {
  if (s.length < 32 || s.length > 44 || !BASE58.test(s)) return null;
  if (!/\d/.test(s) || !/[A-Z]/.test(s) || !/[a-z]/.test(s)) return null;
  try {
    if (base58.decode(s).length !== 32) return null;
  } catch {
    return null;
  }
  return { kind: 'solana', network: 'Solana', address: s };
}

/**
 * Which chain's address a run of ASCII letters and digits is, or null. `checksummedOnly` leaves
 * out the one kind without a checksum (Solana), for strings joined from several pieces, where a
 * shape alone would match prose, and base58check versions the list above cannot name.
 */
export function chainAddressOf(s: string, checksummedOnly = false): ChainAddress | null {
  return (
    base58checkAddress(s, checksummedOnly) ??
    bech32Address(s) ??
    icapAddress(s) ??
    (checksummedOnly ? null : solanaAddress(s))
  );
}
