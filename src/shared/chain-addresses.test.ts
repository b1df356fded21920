import { describe, expect, it } from 'vitest';
import { chainAddressOf } from './chain-addresses.ts';

// Real addresses of each kind (the BIPs' own vectors where there are some), and the near misses
// and ordinary strings that must not be taken for one.

const REAL = {
  bitcoin: [
    '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', // the genesis block's
    '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', // P2PKH
    '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', // P2SH
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', // BIP 173, P2WPKH
    'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297', // BIP 86, taproot (bech32m)
    'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', // testnet
  ],
  base58check: [
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', // Tron
    'LaMT348PWRnrqeeWArpwQPbuanpXDZGEUz', // Litecoin
    'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L', // Dogecoin
  ],
  bech32: ['ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea', 'cosmos1hsk6jryyqjfhp5dhc55tc9jtckygx0eph6dd02'],
  solana: [
    'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', // USDC's mint
    'So11111111111111111111111111111111111111112', // wrapped SOL
    '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
  ],
  icap: ['XE7338O073KYGTWWZN0F2WZ0R8PX5ZPPZS'], // the ICAP of 0x00c5496aee77c1ba1f0854206a26dda82a81d6d8
} as const;

/** The same string with one character changed to another of its alphabet. */
const typo = (s: string, at: number) =>
  s.slice(0, at) + (s[at] === 'q' ? 'p' : s[at] === '2' ? '3' : 'q') + s.slice(at + 1);

describe('other chains’ addresses', () => {
  it.each(Object.entries(REAL).flatMap(([kind, list]) => list.map((a) => [kind, a] as const)))(
    'recognises the %s address %s',
    (kind, address) => {
      expect(chainAddressOf(address)?.kind).toBe(kind);
      expect(chainAddressOf(address)?.address).toBe(address);
    },
  );

  it('names the chain in words', () => {
    expect(chainAddressOf('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')?.network).toBe('Bitcoin');
    expect(chainAddressOf('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')?.network).toBe('Tron');
    expect(chainAddressOf('cosmos1hsk6jryyqjfhp5dhc55tc9jtckygx0eph6dd02')?.network).toBe('bech32 (cosmos1…)');
  });

  it('takes bech32 in capitals (BIP 173 allows it) and gives it in lower case', () => {
    expect(chainAddressOf('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')?.address).toBe(
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    );
  });

  it('refuses checksummed strings with one character wrong', () => {
    for (const a of [...REAL.bitcoin, ...REAL.base58check, ...REAL.bech32, ...REAL.icap])
      expect(chainAddressOf(typo(a, a.length - 5)), a).toBeNull();
  });

  it('refuses a bc1 string whose witness program has the wrong length, and v0 in bech32m', () => {
    // BIP 173's and BIP 350's invalid vectors.
    expect(chainAddressOf('bc1zw508d6qejxtdg4y5r3zarqfsj7c3')).toBeNull();
    expect(chainAddressOf('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh')).toBeNull();
  });

  it('takes a Solana address by its shape only: 32–44 base58 characters, 32 bytes, digits and both cases', () => {
    expect(chainAddressOf('11111111111111111111111111111111')).toBeNull(); // no letters
    expect(chainAddressOf('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1vA')).toBeNull(); // 33 bytes
    expect(chainAddressOf('EPjFWddAufqSSqeMqNxzybapCGwEGGkZwyTDtvAbcde')).toBeNull(); // no digit
    expect(chainAddressOf('epjfwdd5aufqssqem2qn1xzybapc8g4wegjkzwytdt1v')).toBeNull(); // one case
    expect(chainAddressOf('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', true)).toBeNull(); // checksummed only
  });

  it('takes neither words, numbers, hashes nor Ethereum addresses for one', () => {
    for (const s of [
      'Donaudampfschiffahrtsgesellschaftskapitaen',
      'Rindfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz',
      'pneumonoultramicroscopicsilicovolcanoconiosis',
      'Supercalifragilisticexpialidocious2026',
      '20261201180000',
      '1000000000000000000000000',
      '123456789123456789123456789123456789',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', // SHA-256 of nothing
      '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'da39a3ee5e6b4b0d3255bfef95601890afd80709', // SHA-1, a git commit's length
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      'fB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      'XE12Presale',
      'bc1qpresale',
      'DiamondHandDH',
    ])
      expect(chainAddressOf(s), s).toBeNull();
  });
});
