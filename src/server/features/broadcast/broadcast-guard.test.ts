import fc from 'fast-check';
import unhomoglyph from 'unhomoglyph';
import { describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { toChecksumAddress } from '../../../shared/eth-address.ts';
import { broadcastPolicyOf, broadcastProblems, broadcastRefusal, type BroadcastPolicy } from './broadcast-guard.ts';

const OFFICIAL = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const policy: BroadcastPolicy = {
  officialAddress: OFFICIAL,
  siteUrl: 'https://dh.example',
  linkUrls: ['https://twitter.com/DiamondHandDH', 'https://t.me/DiamondHandDH', 'https://presale.example/dh'],
  explorerUrl: 'https://etherscan.io',
};
const noOfficial: BroadcastPolicy = { ...policy, officialAddress: null };
const refusal = (body: string, subject = 'The presale is live', p = policy) => broadcastRefusal({ subject, body }, p);

// ---------------------------------------------------------------------------------------------
// Generators for the property tests: every way of disguising an address the issue lists.

const HEX = '0123456789abcdef';
const foreignAddress = fc
  .array(fc.constantFrom(...HEX), { minLength: 40, maxLength: 40 })
  .map((d) => d.join(''))
  .filter((d) => d !== OFFICIAL.slice(2).toLowerCase())
  .chain((d) => fc.constantFrom(d, toChecksumAddress(`0x${d}`).slice(2), d.toUpperCase()));

// Lookalikes of each hex digit and letter: every character the published confusables data (as
// unhomoglyph ships it) gives the same skeleton, plus the fullwidth and mathematical forms NFKC
// folds. Derived from the data, not typed by hand, so new data brings new cases.
const data = (await import('unhomoglyph/data.json', { with: { type: 'json' } })).default as Record<string, string>;
const lookalikes = new Map<string, string[]>();
for (const c of `${HEX}ABCDEF`) {
  const target = unhomoglyph(c);
  const fromData = Object.keys(data).filter((k) => k >= '\u0080' && data[k] === target);
  const fullwidth = String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0);
  const mathDigit = /[0-9]/.test(c)
    ? [String.fromCodePoint(0x1d7ce + Number(c)), String.fromCodePoint(0x1d7f6 + Number(c))]
    : [];
  lookalikes.set(c, [...new Set([...fromData, fullwidth, ...mathDigit])]);
}

// Invisible characters of every kind the issue names: format (Cf), zero-width and joiners,
// variation selectors, tags, bidi controls, Hangul fillers, soft hyphen, CGJ, Mongolian separator.
const INVISIBLE = [
  '\u2063',
  '\u2062',
  '\u2061',
  '\u2064',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\u034f',
  '\u180e',
  '\ufe00',
  '\ufe0e',
  '\ufe0f',
  '\u{e0100}',
  '\u{e0041}',
  '\u{e007f}',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\u115f',
  '\u1160',
  '\u3164',
  '\uffa0',
  '\u0000',
  '\u{f0000}',
];
const SEPARATORS = [
  '-',
  '.',
  ' ',
  '  ',
  '\n',
  '\n\n',
  ' - ',
  ' . ',
  ',',
  '/',
  '**',
  '_',
  '~~',
  '\\',
  '> ',
  ' | ',
  '·',
  '—',
  '\u00a0',
];

type Draft = { subject: string; body: string; expect: RegExp };

// The digits of an address, transformed piece by piece.
const disguisedDigits = (digits: string) =>
  fc
    .record({
      prefix: fc.constantFrom('0x', '', '0X', '０ｘ', '0х', '0×'),
      lookalike: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 40, maxLength: 40 }),
      gaps: fc.array(fc.option(fc.constantFrom(...SEPARATORS), { freq: 3 }), { minLength: 40, maxLength: 40 }),
      swap: fc.boolean(),
    })
    .map(({ prefix, lookalike, gaps, swap }) => {
      let out = prefix;
      [...digits].forEach((c, i) => {
        const forms = lookalikes.get(c) ?? [c];
        out += swap && (lookalike[i] ?? 0) % 3 === 0 ? forms[(lookalike[i] ?? 0) % forms.length] : c;
        if (i < 39 && gaps[i]) out += gaps[i];
      });
      return out;
    });

const wrap = (text: string) =>
  fc
    .constantFrom(
      (t: string) => `Send your ETH to ${t} now.`,
      (t: string) => `Send to **${t}**`,
      (t: string) => `Send to \`${t}\``,
      (t: string) => `# ${t}`,
      (t: string) => `- the contract:\n- ${t}`,
      (t: string) => `> ${t}`,
      (t: string) => `[${t}](https://t.me/DiamondHandDH)`,
    )
    .map((f) => f(text));

const encodeSome = (s: string, picks: number[], how: 'percent' | 'entity' | 'hex-entity') =>
  [...s]
    .map((c, i) =>
      (picks[i] ?? 0) % 2 === 0
        ? c
        : how === 'percent'
          ? `%${(c.codePointAt(0) ?? 0).toString(16).padStart(2, '0')}`
          : how === 'entity'
            ? `&#${c.codePointAt(0)};`
            : `&#x${(c.codePointAt(0) ?? 0).toString(16)};`,
    )
    .join('');

const disguisedForeign: fc.Arbitrary<Draft> = fc.oneof(
  // Lookalikes, separators of every kind, with or without 0x, inside Markdown.
  foreignAddress
    .chain((d) => disguisedDigits(d))
    .chain(wrap)
    .map((body) => ({ subject: 'Presale', body, expect: /Ethereum address|hexadecimal digits/ })),
  // The same in the subject.
  foreignAddress
    .chain((d) => disguisedDigits(d))
    .map((s) => ({
      subject: `Buy: ${s.replace(/\n/g, ' ')}`,
      body: 'Hello.',
      expect: /Ethereum address|hexadecimal digits/,
    })),
  // An invisible character anywhere in the address.
  fc
    .record({
      d: foreignAddress,
      at: fc.integer({ min: 0, max: 41 }),
      c: fc.constantFrom(...INVISIBLE),
      inSubject: fc.boolean(),
    })
    .map(({ d, at, c, inSubject }) => {
      const a = `0x${d}`;
      const hidden = `${a.slice(0, at)}${c}${a.slice(at)}`;
      return inSubject
        ? {
            subject: `Buy ${hidden}`,
            body: 'Hello.',
            expect: /The subject contains an invisible character \(U\+[0-9A-F]{4,5}/,
          }
        : {
            subject: 'Presale',
            body: `Send to ${hidden}`,
            expect: /The message contains an invisible character \(U\+[0-9A-F]{4,5}/,
          };
    }),
  // An invisible character written as an entity in the text or %-encoded in a link.
  fc
    .record({ d: foreignAddress, c: fc.constantFrom(...INVISIBLE.filter((c) => c !== '\u0000')), link: fc.boolean() })
    .map(({ d, c, link }) => {
      const cp = c.codePointAt(0) ?? 0;
      const body = link
        ? `[Our page](https://dh.example/${d.slice(0, 5)}${encodeURIComponent(c)}${d.slice(5)})`
        : `Send to 0x${d.slice(0, 5)}&#x${cp.toString(16)};${d.slice(5)}`;
      return { subject: 'Presale', body, expect: /invisible character/ };
    }),
  // Encoded inside a link target: %-codes or entities, on the explorer or anywhere.
  fc
    .record({
      d: foreignAddress,
      picks: fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
      how: fc.constantFrom('percent' as const, 'entity' as const, 'hex-entity' as const),
      base: fc.constantFrom(
        'https://etherscan.io/address/0x',
        'https://etherscan.io/token/',
        'https://dh.example/buy?to=0x',
        'https://t.me/share?text=0x',
      ),
    })
    .map(({ d, picks, how, base }) => ({
      subject: 'Presale',
      body: `[Official page](${base}${encodeSome(d, picks, how)})`,
      expect: /Ethereum address|hexadecimal digits/,
    })),
  // ENS names, plain or with lookalike letters.
  fc
    .record({
      label: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,15}[a-z0-9]$/),
      eth: fc.constantFrom('eth', 'ETH', 'ｅｔｈ', 'еth', 'еtһ'),
      wrapIt: fc.constantFrom(
        (n: string) => `Send to ${n}.`,
        (n: string) => `**${n}**`,
        (n: string) => `\`${n}\``,
        (n: string) => `[wallet](https://app.ens.domains/${n})`,
      ),
    })
    .map(({ label, eth, wrapIt }) => ({ subject: 'Presale', body: wrapIt(`${label}.${eth}`), expect: /ENS name/ })),
  // The official address with hex digits appended or prepended.
  fc
    .record({ extra: fc.array(fc.constantFrom(...HEX), { minLength: 1, maxLength: 8 }), before: fc.boolean() })
    .map(({ extra, before }) => ({
      subject: 'Presale',
      body: before ? `Contract: ${extra.join('')}${OFFICIAL}` : `Contract: ${OFFICIAL}${extra.join('')}`,
      expect: /official contract address is written other than exactly|Ethereum address|hexadecimal digits/,
    })),
);

const WORDS = [
  'The',
  'presale',
  'opens',
  'soon',
  'join',
  'us',
  'on',
  'Telegram',
  'at',
  '18:00',
  'UTC',
  'on',
  '2026-12-01',
  'buy',
  'DH',
  'with',
  'ETH',
  'in',
  'USDT.',
  'HODL!',
  '💎🙌',
  '❤️',
  '🚀',
];
const officialFormatted = fc.constantFrom(
  `${OFFICIAL}`,
  `${OFFICIAL.toLowerCase()}`,
  `**${OFFICIAL}**`,
  `_${OFFICIAL}_`,
  `\`${OFFICIAL}\``,
  `[${OFFICIAL}](https://etherscan.io/token/${OFFICIAL})`,
  `[the contract's page](https://etherscan.io/address/${OFFICIAL.toLowerCase()})`,
  `https://etherscan.io/token/${OFFICIAL}`,
  `(${OFFICIAL})`,
  `“${OFFICIAL}”`,
);
const legitimate = fc
  .record({
    before: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }),
    address: officialFormatted,
    after: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }),
    layout: fc.constantFrom(' ', '\n', '\n\n', ': ', '\n\n- '),
  })
  .map(({ before, address, after, layout }) => `${before.join(' ')}${layout}${address}${layout}${after.join(' ')}`);

describe('broadcast guard: addresses however disguised (property)', () => {
  it('refuses a foreign address in every disguise, and says why; passes the official one in every legitimate formatting', () => {
    // The generator's lookalikes: Cyrillic, Greek, fullwidth and mathematical forms.
    expect(lookalikes.get('a')).toEqual(expect.arrayContaining(['а', 'ａ'])); // Cyrillic a, fullwidth a
    expect(lookalikes.get('0')).toEqual(expect.arrayContaining(['О', 'Ο', '０', '𝟎'])); // Cyrillic O, Greek Omicron
    expect(lookalikes.get('c')).toEqual(expect.arrayContaining(['с', 'ϲ'])); // Cyrillic es, Greek lunate sigma
    fc.assert(
      fc.property(disguisedForeign, ({ subject, body, expect: words }) => {
        const r = broadcastRefusal({ subject, body }, policy);
        expect(r, JSON.stringify({ subject, body })).toMatch(words);
        expect(broadcastRefusal({ subject, body }, noOfficial)).not.toBeNull();
      }),
      { numRuns: 600 },
    );
    fc.assert(
      fc.property(legitimate, fc.constantFrom('The presale is live', `Contract ${OFFICIAL}`), (body, subject) => {
        expect(broadcastRefusal({ subject, body }, policy), body).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

describe('broadcast guard: addresses', () => {
  it('names a foreign address found through lookalikes, separators and a missing 0x', () => {
    const hex = OTHER.slice(2);
    const cases = [
      `0x${hex.slice(0, 10)}\u2063${hex.slice(10)}`, // invisible separator (also refused on its own)
      `0x${hex.replace(/a/g, 'а').replace(/c/g, 'с').replace(/e/g, 'е')}`, // Cyrillic
      `０ｘ${[...hex].map((c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0)).join('')}`, // fullwidth
      hex, // no 0x
      hex.match(/.{4}/g)?.join('-') ?? '', // dashes
      hex.match(/.{5}/g)?.join('.') ?? '', // dots
      `${hex.slice(0, 20)}\n\n${hex.slice(20)}`, // across paragraphs
      `0x${hex.slice(0, 13)}**${hex.slice(13, 27)}**${hex.slice(27)}`, // Markdown marks
    ];
    for (const body of cases)
      expect(refusal(`Send to ${body}`), body).toContain(
        `contains an Ethereum address (${OTHER}) that is not the official contract address ${OFFICIAL}`,
      );
    // With no official address set, every address is refused, even the one that will be official.
    expect(refusal(`The contract: ${OFFICIAL}`, 'Hi', noOfficial)).toMatch(
      /no official contract address is set in the content file yet/,
    );
  });

  it('the official address passes only exactly: EIP-55 or all lower case, with 0x, whole', () => {
    expect(refusal(`Contract: ${OFFICIAL}`)).toBeNull();
    expect(refusal(`Contract: ${OFFICIAL.toLowerCase()}`)).toBeNull();
    const written = /official contract address is written other than exactly/;
    expect(refusal(`Contract: 0x${OFFICIAL.slice(2).toUpperCase()}`)).toMatch(written); // checksum-breaking case
    expect(refusal(`Contract: ${OFFICIAL.replace('a', 'A')}`)).toMatch(written);
    expect(refusal(`Contract: ${OFFICIAL.slice(2)}`)).toMatch(written); // no 0x
    expect(refusal(`Contract: ${OFFICIAL.slice(0, 22)} ${OFFICIAL.slice(22)}`)).toMatch(written); // split
    expect(refusal(`Contract: ${OFFICIAL.replace('a', 'а')}`)).toMatch(written); // a Cyrillic a
    expect(refusal(`Contract: ${OFFICIAL}ff`)).toMatch(written); // digits appended
    expect(refusal(`Contract: 0X${OFFICIAL.slice(2)}`)).toMatch(written);
  });

  it('refuses ENS names, in any letters', () => {
    expect(refusal('Send to diamondhand.eth')).toMatch(/contains an ENS name \(diamondhand\.eth\)/);
    expect(refusal('Send to vault.diamondhand.ＥＴＨ')).toMatch(/ENS name \(vault\.diamondhand\.eth\)/);
    expect(refusal('Pay in USDT. ETH also works.')).toBeNull();
  });

  it('false positives, as chosen (decision 0027): prose with dates, times, amounts and emoji passes; a bare table of numbers does not', () => {
    const prose = [
      'The presale opens on 2026-12-01 at 18:00 UTC (20:00 in Kyiv). 1,000,000 DH = 0.5 ETH; 2,500,000 DH = 1.25 ETH.',
      'Round 1: 2026-12-01, round 2: 2026-12-08, round 3: 2026-12-15. Call +1 555 0100 2000 3000 with questions.',
      'We are live ❤️ 👨‍💻 🏳️‍🌈 💎🙌🏽 — HODL!',
      'A bad fab cafe, a dead beef decade: I add a face.',
    ];
    for (const body of prose) expect(refusal(body), body).toBeNull();
    const table = `| Round | Price |\n|---|---|\n${Array.from({ length: 10 }, (_, i) => `| ${i + 1} | 0.00${i} |`).join('\n')}\n`;
    expect(refusal(table)).toMatch(/run of 40 or more hexadecimal digits .* put words \(such as units\) between them/);
    expect(refusal(table.replace(/ \|\n/g, ' ETH |\n'))).toBeNull();
  });
});

describe('broadcast guard: invisible characters', () => {
  it('says which character, where, and to remove it', () => {
    expect(refusal('Hello.', 'Presale\u2063 live')).toBe(
      'The subject contains an invisible character (U+2063 INVISIBLE SEPARATOR) after “Presale”; remove it.',
    );
    expect(refusal('Hi\n\nSend to 0x12\u200b34\u200b')).toBe(
      'The message contains 2 invisible characters (U+200B ZERO WIDTH SPACE), the first on line 3 after “Send to 0x12”; remove them.',
    );
    expect(refusal('\u202eHello')).toBe(
      'The message contains an invisible character (U+202E RIGHT-TO-LEFT OVERRIDE) at the start; remove it.',
    );
    expect(refusal('Hi &#x2063; there')).toMatch(
      /U\+2063 INVISIBLE SEPARATOR\), written in code \(an HTML entity or %-encoding\)/,
    );
  });

  it('refuses each kind by its Unicode properties: variation selectors, tags, Hangul fillers, bidi isolates, private use', () => {
    expect(refusal('a\ufe00b')).toMatch(/U\+FE00 VARIATION SELECTOR-1/);
    expect(refusal('a\u{e0100}b')).toMatch(/U\+E0100 VARIATION SELECTOR-17/);
    expect(refusal('a\u{e0041}b')).toMatch(/U\+E0041, a TAG character/);
    expect(refusal('a\u3164b')).toMatch(/U\+3164 HANGUL FILLER/);
    expect(refusal('a\u115fb')).toMatch(/U\+115F HANGUL CHOSEONG FILLER/);
    expect(refusal('a\u2066b')).toMatch(/U\+2066 LEFT-TO-RIGHT ISOLATE/);
    expect(refusal('a\u{f0000}b')).toMatch(/U\+F0000, a private-use character/);
    expect(refusal('a\u0007b')).toMatch(/U\+0007, a control character/);
    // Emoji keep their selector and joiner; a selector after a digit (a keycap) is refused.
    expect(refusal('Live ❤️ 👩‍💻')).toBeNull();
    expect(refusal('Step 1\ufe0f\u20e3')).toMatch(/U\+FE0F VARIATION SELECTOR-16/);
  });
});

describe('broadcast guard: links and images', () => {
  const ok = [
    '[our site](https://dh.example/presale)',
    '<https://dh.example/faq>',
    'https://t.me/DiamondHandDH',
    '[Twitter](https://twitter.com/DiamondHandDH) and [twitter.com/DiamondHandDH](https://www.twitter.com/DiamondHandDH)',
    '[Buy](https://presale.example/dh)',
    `[Contract page](https://etherscan.io/token/${OFFICIAL})`,
    '[write to us](mailto:team@dh.example) or team@dh.example',
    '![Diamond Hand](https://dh.example/logo.png)',
    'Visit dh.example or t.me/DiamondHandDH.',
  ];
  it('allows this site, the content file’s sites, the explorer page of the official address, mail to this domain, images from this site; refuses every other link, naming it in words', () => {
    for (const body of ok) expect(refusal(body), body).toBeNull();
    const cases: [string, RegExp][] = [
      [
        '[Buy on the official dapp](https://any-phishing.example)',
        /^The link “Buy on the official dapp” goes to any-phishing\.example \(https:\/\/any-phishing\.example\), which is not this site \(dh\.example\) or a site the content file lists \(twitter\.com, t\.me, presale\.example, etherscan\.io for the contract’s page\); a broadcast may link only there\.$/,
      ],
      [
        '<https://any-phishing.example/claim>',
        /The link “https:\/\/any-phishing\.example\/claim” goes to any-phishing\.example/,
      ],
      ['[claim](https://dh.example@any-phishing.example/)', /goes to any-phishing\.example/],
      ['[claim](https://dh.exаmple/)', /goes to dh\.xn--exmple-/], // a Cyrillic a: the punycode host
      ['[claim](https://dh.example.any-phishing.example/)', /goes to dh\.example\.any-phishing\.example/],
      ['[Twitter](http://twitter.com/DiamondHandDH)', /The link “Twitter” goes to a http: address/],
      ['[claim](https://t.me:8443/x)', /goes to t\.me:8443/],
      [
        '[page](https://etherscan.io/address/0x0000000000000000000000000000000000000000)',
        /etherscan\.io but not to the page of the official contract address/,
      ],
      ['[page](https://etherscan.io/)', /not to the page of the official contract address/],
      [
        '[support](mailto:claims@any-phishing.example)',
        /The link “support” writes to an email address at any-phishing\.example/,
      ],
      [
        '[FAQ](/faq)',
        /The link “FAQ” has no full address \(“\/faq”\); write it in full, starting with https:\/\/dh\.example\//,
      ],
    ];
    for (const [body, words] of cases) expect(refusal(body), body).toMatch(words);
    expect(refusal(`[x](https://etherscan.io/token/${OFFICIAL})`, 'Hi', noOfficial)).toMatch(
      /none is set in the content file yet/,
    );
  });

  it('refuses link text that reads as one address but goes to another', () => {
    expect(refusal('[dh.example](https://t.me/DiamondHandDH)')).toBe(
      'The link “dh.example” reads as dh.example but goes to t.me; a link that reads as an address must go to that address.',
    );
    expect(refusal('[https://twitter.com/DiamondHandDH](https://t.me/DiamondHandDH)')).toMatch(
      /reads as twitter\.com but goes to t\.me/,
    );
    expect(refusal('[Official site: dh.example/presale](https://presale.example/dh)')).toMatch(
      /reads as dh\.example but goes to presale\.example/,
    );
    expect(refusal('[team@dh.example](mailto:team@dh.example)')).toBeNull();
  });

  it('refuses images from anywhere but this site, and embedded ones', () => {
    expect(refusal('![QR code](https://any-phishing.example/qr.png)')).toMatch(
      /^The image “QR code” is loaded from any-phishing\.example; a broadcast may show images from this site only \(https:\/\/dh\.example\/…\)/,
    );
    expect(refusal('![](https://dh.example.any-phishing.example/p.gif)')).toMatch(
      /^An image is loaded from dh\.example\.any-phishing\.example/,
    );
    expect(refusal('![dot](data:image/png;base64,iVBORw0KGgo=)')).toMatch(
      /The image “dot” is embedded as data: in the message/,
    );
    expect(refusal('![logo](http://dh.example/logo.png)')).toMatch(/The image “logo” is loaded from dh\.example/);
  });

  it('refuses a site named in the text, the way mail programs would link it, or in a link’s hover title', () => {
    expect(refusal('[Our site](https://dh.example "Mirror: dh-presale.xyz")')).toMatch(
      /The text mentions dh-presale\.xyz/,
    );
    expect(
      refusal(
        '[Our site](https://dh.example "Send to &#x30;x52908400098527886E0F7030069857D2E4169EE7")',
        'Hi',
        noOfficial,
      ),
    ).toMatch(/contains an Ethereum address \(0x52908400098527886E0F7030069857D2E4169EE7\)/);
    expect(refusal('Buy at dh-presale.xyz before it sells out')).toMatch(
      /^The text mentions dh-presale\.xyz, which is not this site/,
    );
    expect(refusal('Buy', 'Go to dh-presale.xyz')).toMatch(/The text mentions dh-presale\.xyz/);
    expect(refusal('Write to claims@any-phishing.example')).toMatch(
      /writes to an email address at any-phishing\.example|mentions any-phishing\.example/,
    );
  });

  it('several problems read as a numbered list, one line each', () => {
    const r = refusal(`Hi\u200b [x](https://evil.example) ${OTHER}`) ?? '';
    const lines = r.split('\n');
    expect(lines[0]).toBe('This broadcast cannot go out, for 3 reasons:');
    expect(lines.slice(1).map((l) => l.slice(0, 3))).toEqual(['1. ', '2. ', '3. ']);
    expect(
      broadcastProblems({ subject: 'Hi', body: `Hi\u200b [x](https://evil.example) ${OTHER}` }, policy),
    ).toHaveLength(3);
    // Ten at most, then how many more.
    const many = refusal(Array.from({ length: 13 }, (_, i) => `[x${i}](https://evil${i}.example)`).join(' ')) ?? '';
    expect(many.split('\n')).toHaveLength(12);
    expect(many.split('\n').at(-1)).toBe('…and 3 more; fix these and save again to see the rest.');
  });
});

describe('broadcast policy from the content file', () => {
  it('takes the official address, the socials, the presale page and the explorer (etherscan.io unless set)', () => {
    const content = parseSiteContent({
      ...siteContent,
      contractAddress: OFFICIAL,
      presaleDate: '2026-12-01T18:00:00Z',
      presaleUrl: 'https://presale.example/dh',
    });
    expect(broadcastPolicyOf(content, 'https://dh.example')).toEqual({
      officialAddress: OFFICIAL,
      siteUrl: 'https://dh.example',
      linkUrls: ['https://twitter.com/DiamondHandDH', 'https://t.me/DiamondHandDH', 'https://presale.example/dh'],
      explorerUrl: 'https://etherscan.io',
      otherChainAddresses: [],
    });
    const without: Partial<typeof siteContent> = { ...siteContent };
    delete without.explorerUrl;
    expect(parseSiteContent(without).explorerUrl).toBe('https://etherscan.io');
    expect(parseSiteContent({ ...siteContent, explorerUrl: 'https://basescan.org' }).explorerUrl).toBe(
      'https://basescan.org',
    );
    expect(() => parseSiteContent({ ...siteContent, explorerUrl: 'http://etherscan.io' })).toThrow(
      /explorerUrl: must start with https:\/\//,
    );
    expect(() => parseSiteContent({ ...siteContent, explorerUrl: 'https://etherscan.io/address/' })).toThrow(
      /explorerUrl: must be the explorer’s origin only/,
    );
  });
});
