import { describe, expect, it } from 'vitest';
import { catalog } from '../../../../content/messages/catalog.ts';
import { locales } from '../../../shared/locales.ts';
import { signupLimits } from '../../../shared/signup-schema.ts';
import { broadcastProblems, type BroadcastPolicy } from './broadcast-guard.ts';
import { otherChainProblems } from './other-chain-addresses.ts';

// Other chains' addresses in a broadcast: refused as written, and as disguised (lookalike letters,
// fullwidth forms, invisible characters, split into groups), unless the content file lists one as
// official; and ordinary prose in the site's five languages never taken for one.

const OFFICIAL = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const policy: BroadcastPolicy = {
  officialAddress: OFFICIAL,
  siteUrl: 'https://dh.example',
  linkUrls: ['https://twitter.com/DiamondHandDH', 'https://t.me/DiamondHandDH'],
  explorerUrl: 'https://etherscan.io',
};
const problems = (body: string, p: BroadcastPolicy = policy) => broadcastProblems({ subject: 'The presale', body }, p);
const other = (body: string) => problems(body).filter((m) => m.includes('on another chain'));

const BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const P2SH = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const BECH32 = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const TAPROOT = 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297';
const SOL = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const ICAP = 'XE7338O073KYGTWWZN0F2WZ0R8PX5ZPPZS';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

// Lookalikes a reader cannot tell apart: Cyrillic and Greek capitals and small letters.
const CYRILLIC: Record<string, string> = {
  B: '\u0412',
  M: '\u041c',
  E: '\u0415',
  T: '\u0422',
  a: '\u0430',
  e: '\u0435',
  o: '\u043e',
  p: '\u0440',
  c: '\u0441',
  y: '\u0443',
  x: '\u0445',
};
const lookalike = (s: string) => Array.from(s, (c) => CYRILLIC[c] ?? c).join('');
const fullwidth = (s: string) => Array.from(s, (c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0)).join('');
const groups = (s: string, sep: string) => (s.match(/.{1,4}/g) ?? []).join(sep);

describe('other chains’ addresses in a broadcast', () => {
  it.each([
    ['Bitcoin P2PKH', BTC, 'Bitcoin'],
    ['Bitcoin P2SH', P2SH, 'Bitcoin'],
    ['Bitcoin bech32', BECH32, 'Bitcoin'],
    ['Bitcoin taproot', TAPROOT, 'Bitcoin'],
    ['Solana', SOL, 'Solana'],
    ['ICAP', ICAP, 'ICAP'],
    ['Tron', TRON, 'Tron'],
  ])('refuses a %s address, naming it', (_kind, address, network) => {
    const found = other(`Send your coins to ${address} before Friday.`);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(`${network}`);
    expect(found[0]).toContain(address);
    expect(found[0]).toContain(OFFICIAL);
  });

  it('refuses them in the subject, in a link, and %-encoded in a link', () => {
    expect(broadcastProblems({ subject: `Send SOL to ${SOL}`, body: 'Hi.' }, policy).join()).toContain(SOL);
    expect(other(`[Pay here](https://dh.example/pay?to=${BTC})`)[0]).toContain(BTC);
    const encoded = Array.from(SOL, (c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    expect(other(`[Pay here](https://dh.example/pay?to=${encoded})`)[0]).toContain(SOL);
  });

  it.each([
    ['lookalike letters', (a: string) => lookalike(a)],
    ['fullwidth forms (NFKC)', fullwidth],
    ['zero-width spaces', (a: string) => Array.from(a).join('\u200b')],
    [
      'a soft hyphen and an invisible separator',
      (a: string) => `${a.slice(0, 10)}\u00ad${a.slice(10, 20)}\u2063${a.slice(20)}`,
    ],
  ])('sees through %s', (_how, disguise) => {
    for (const address of [BTC, P2SH, BECH32, SOL, TRON]) {
      const written = disguise(address);
      expect(written).not.toBe(address);
      const found = other(`Send it to ${written} now.`);
      expect(found, written).toHaveLength(1);
      expect(found[0]).toContain(address.startsWith('bc1') ? address.toLowerCase() : address);
      expect(found[0]).toContain('written with lookalike or hidden characters, or split into pieces');
    }
  });

  it('finds a checksummed address split into groups by spaces, dashes or lines', () => {
    for (const address of [BTC, P2SH, BECH32, TAPROOT, TRON])
      for (const sep of [' ', '-', '\n', ' - '])
        expect(other(`To: ${groups(address, sep)}`)[0], `${address} split by ${JSON.stringify(sep)}`).toContain(
          address,
        );
    expect(other(`IBAN: ${groups(ICAP, ' ')}`)[0]).toContain(ICAP);
  });

  it('lets the content file’s own other-chain address through, written exactly, and refuses it disguised', () => {
    const withSol: BroadcastPolicy = { ...policy, otherChainAddresses: [SOL, BECH32] };
    expect(problems(`Our Solana treasury is ${SOL}; Bitcoin ${BECH32}.`, withSol)).toEqual([]);
    expect(problems(`Our Solana treasury is ${lookalike(SOL)}.`, withSol).join('\n')).toContain(
      `The official address ${SOL} is written other than exactly`,
    );
    expect(problems(`Bitcoin: ${groups(BECH32, ' ')}`, withSol).join('\n')).toContain(
      `The official address ${BECH32} is written other than exactly`,
    );
    // Another one beside it is still refused.
    expect(problems(`Ours: ${SOL}. Also: ${BTC}`, withSol).join('\n')).toContain(BTC);
  });

  it('names the official contract address written as ICAP as such', () => {
    const icapOfficial = { ...policy, officialAddress: '0x00c5496aEe77C1bA1f0854206A26DdA82a81D6D8' };
    const found = problems(`Contract: ${ICAP}`, icapOfficial);
    expect(found).toEqual([expect.stringContaining('The official contract address is written in its ICAP form')]);
  });

  it('leaves the official Ethereum address alone', () => {
    expect(problems(`The contract is ${OFFICIAL}. Check it on the explorer.`)).toEqual([]);
    expect(otherChainProblems([OFFICIAL, OFFICIAL.slice(2), OFFICIAL.toLowerCase()], [], OFFICIAL)).toEqual([]);
  });
});

describe('prose that is not an address', () => {
  /** Every string of a locale's words (each message function called with sample parameters). */
  const leaves = (value: unknown): string[] => {
    if (typeof value === 'string') return [value];
    if (typeof value === 'function')
      return leaves(
        (value as (p: object) => unknown)({
          ...signupLimits,
          address: OFFICIAL,
          since: '2026-12-01',
          seconds: 37,
          days: 12,
          hours: 13,
          minutes: 14,
          year: 2026,
          chainId: 1,
          wallet: 'MetaMask',
          name: 'Diamond Hand',
          site: 'Diamond Hand (DH)',
          domain: 'dh.example',
          uri: 'https://dh.example/',
        }),
      );
    if (Array.isArray(value)) return value.flatMap(leaves);
    if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(leaves);
    return [];
  };

  it.each(locales)('takes none of the site’s own words in %s for an address', (locale) => {
    const words = leaves(catalog[locale]);
    expect(words.length).toBeGreaterThan(100);
    expect(otherChainProblems(words, [], OFFICIAL)).toEqual([]);
  });

  const PROSE = [
    // English
    'The presale opens on 2026-12-01 at 18:00 UTC. 1,000,000 DH = 0.5 ETH; the first 250 buyers get 15% more.',
    'Call us on +1 415 555 0132 between 9 and 17. Ticket #A7B9-C3D1-E5F7 is closed. Version 3.14.159 shipped.',
    'Thanks to the 12,345 HODLers who joined in 2026: a bad cafe, a face, and a deed of 1337 diamonds.',
    'Order ID 4Kf9TQ2 and code SAVE25NOW; use it before 23:59.',
    // Spanish
    'La preventa abre el 1 de diciembre de 2026 a las 18:00 UTC. Los primeros 250 compradores reciben un 15 % más.',
    'Gracias a los 12.345 participantes; el sorteo nº 42 se celebra el sábado 5/12 a las 20 h.',
    // Brazilian Portuguese
    'A pré-venda abre em 1º de dezembro de 2026, às 18h (UTC). Os primeiros 250 compradores ganham 15% a mais.',
    'Obrigado aos 12.345 participantes! Protocolo 2026/0042-B, emitido às 14h30.',
    // Simplified Chinese
    '预售将于 2026 年 12 月 1 日 18:00（UTC）开始。前 250 位买家可额外获得 15% 的代币。',
    '感谢 12,345 位持有者！活动编号 DH2026A1B2，抽奖将在 20:00 举行。',
    // Arabic
    'يبدأ البيع المسبق في 1 ديسمبر 2026 الساعة 18:00 بالتوقيت العالمي. يحصل أول 250 مشتريًا على 15٪ إضافية.',
    'شكرًا لـ 12٬345 مشاركًا! رقم الطلب ٢٠٢٦١٢٠١ والموعد الساعة ٢٠:٠٠.',
  ];
  it('passes ordinary prose in five languages, with dates, amounts, phone numbers and codes', () => {
    for (const text of PROSE) expect(problems(text), text).toEqual([]);
  });

  it('adds nothing of its own for hashes in prose (the Ethereum guard speaks for long hex runs)', () => {
    const hashes = [
      'The audit report’s SHA-256 is e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.',
      'Built from commit da39a3ee5e6b4b0d3255bfef95601890afd80709 on Monday.',
      'The IPFS copy is QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco and bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi.',
    ];
    expect(otherChainProblems(hashes, [], OFFICIAL)).toEqual([]);
  });
});
