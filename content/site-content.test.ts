import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSiteContent } from '../src/shared/content-schema.ts';
import { asciiCountryList, countryListIn, isCountryCode } from '../src/shared/countries.ts';
import { locales } from '../src/shared/locales.ts';
import { siteContent } from './site-content.ts';

// The content file with the build's schema (src/shared/content-schema.ts); moved here from
// src/shared/eth-address.test.ts, since src/shared reads nothing from content/.
const OFFICIAL = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('the content file', () => {
  it('the content file: contractAddress is optional, null when shipped, and a bad one stops the build naming the field', () => {
    expect(parseSiteContent(siteContent).contractAddress).toBeNull();
    const without: Partial<typeof siteContent> = { ...siteContent };
    delete without.contractAddress;
    expect(parseSiteContent(without).contractAddress).toBeNull();
    expect(parseSiteContent({ ...siteContent, contractAddress: OFFICIAL }).contractAddress).toBe(OFFICIAL);
    expect(() => parseSiteContent({ ...siteContent, contractAddress: OFFICIAL.toLowerCase() })).toThrow(
      /contractAddress: fails its EIP-55 checksum/,
    );
    expect(() => parseSiteContent({ ...siteContent, contractAddress: '0x1234' })).toThrow(
      /contractAddress: must be 0x followed by 40/,
    );
  });
});

// Every pair of capitals, and those that are countries: the ISO 3166-1 list (249) and Kosovo.
const pairs = Array.from({ length: 26 * 26 }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)));
const countries = pairs.filter(isCountryCode);

const withTerms = (terms: Record<string, unknown>) =>
  parseSiteContent({ ...siteContent, presaleTerms: { ...siteContent.presaleTerms, ...terms } });

describe("the content file's presale terms", () => {
  it('ships with no restricted country, a version, and a terms page in every locale', () => {
    const { presaleTerms } = parseSiteContent(siteContent);
    expect(presaleTerms.restrictedCountries).toEqual([]);
    expect(presaleTerms.version).toMatch(/^[\w.-]+$/);
    expect(Object.keys(presaleTerms.pages).sort()).toEqual([...locales].sort());
    expect(withTerms({ restrictedCountries: undefined }).presaleTerms.restrictedCountries).toEqual([]);
  });

  it('knows the 249 countries of ISO 3166-1 and Kosovo, and no grouping, pseudo-region or withdrawn code', () => {
    expect(countries).toHaveLength(250);
    for (const code of ['US', 'CU', 'IR', 'KP', 'GB', 'XK', 'CI', 'AX']) expect(countries).toContain(code);
    for (const code of ['UK', 'EU', 'UN', 'ZZ', 'XA', 'SU', 'YU', 'AN', 'QO', 'EZ'])
      expect(countries).not.toContain(code);
  });

  it('names every country in printable ASCII for the signed message, and in each language for the page', () => {
    const all = asciiCountryList(countries);
    expect(all).toMatch(/^[\x20-\x7e]+$/);
    expect(asciiCountryList(['CI', 'US'])).toBe("Cote d'Ivoire (CI) or United States (US)");
    expect(countryListIn('es', ['US', 'CU'])).toBe('Estados Unidos y Cuba');
    expect(countryListIn('ar', ['US'])).toBe('الولايات المتحدة');
  });

  it('a bad or repeated country code stops the build, naming the field and the code', () => {
    expect(withTerms({ restrictedCountries: ['US', 'CU'] }).presaleTerms.restrictedCountries).toEqual(['US', 'CU']);
    expect(() => withTerms({ restrictedCountries: ['US', 'us'] })).toThrow(
      /presaleTerms\.restrictedCountries\.1: "us" is not an ISO 3166-1 alpha-2 country code/,
    );
    expect(() => withTerms({ restrictedCountries: ['UK'] })).toThrow(/presaleTerms\.restrictedCountries\.0: "UK"/);
    expect(() => withTerms({ restrictedCountries: ['US', 'US'] })).toThrow(
      /presaleTerms\.restrictedCountries: names a country twice/,
    );
    expect(() => withTerms({ version: 'v 2' })).toThrow(/presaleTerms\.version: must be 1–40 letters/);
    expect(() => withTerms({ emailList: 'closed' })).toThrow(/presaleTerms\.emailList: must be open or restricted/);
  });

  it('fuzz: any list of real codes builds; any other string among them stops the build at its index', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...countries), { maxLength: 8 }),
        fc.string({ maxLength: 4 }).filter((s) => !countries.includes(s)),
        fc.nat(),
        (codes, bad, at) => {
          expect(withTerms({ restrictedCountries: codes }).presaleTerms.restrictedCountries).toEqual(codes);
          const index = at % (codes.length + 1);
          const spoiled = [...codes.slice(0, index), bad, ...codes.slice(index)];
          expect(() => withTerms({ restrictedCountries: spoiled })).toThrow(
            new RegExp(`presaleTerms\\.restrictedCountries\\.${index}: .* is not an ISO 3166-1 alpha-2 country code`),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('fuzz: a missing or empty terms page of any locale stops the build, naming the locale', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...locales),
        fc.constantFrom('missing', 'no sections', 'no title', 'empty paragraph'),
        (locale, how) => {
          const page = siteContent.presaleTerms.pages[locale];
          const pages: Record<string, unknown> = Object.fromEntries(
            Object.entries(siteContent.presaleTerms.pages).filter(([l]) => how !== 'missing' || l !== locale),
          );
          if (how === 'no sections') pages[locale] = { ...page, sections: [] };
          else if (how === 'no title') pages[locale] = { ...page, title: ' ' };
          else if (how === 'empty paragraph')
            pages[locale] = { ...page, sections: [{ heading: 'x', paragraphs: [''] }] };
          const expected = {
            missing: `presaleTerms.pages.${locale}: must be the terms page in this language`,
            'no sections': `presaleTerms.pages.${locale}.sections: needs at least one section`,
            'no title': `presaleTerms.pages.${locale}.title: must not be empty`,
            'empty paragraph': `presaleTerms.pages.${locale}.sections.0.paragraphs.0: must not be empty`,
          }[how];
          expect(() => withTerms({ pages })).toThrow(expected);
        },
      ),
    );
  });
});
