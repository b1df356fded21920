import { describe, expect, it } from 'vitest';
import { locales } from '../../src/shared/locales.ts';
import { contentIn, parseSiteContent, type ContentWords } from '../../src/shared/content-schema.ts';
import { siteContent } from '../site-content.ts';

// The content file's own words in every language (content/messages/<locale>/site-words.ts): complete, checked by
// the build's schema, and none of them left in English.

const words = (w: ContentWords): string[] => [
  w.description,
  w.heroTagline,
  w.bannerHeadline,
  w.stayUpdated.heading,
  w.stayUpdated.intro,
  w.closingLine,
  w.riskNotice,
  ...w.faq.flatMap((item) => [item.question, item.answer]),
];

const english: ContentWords = {
  description: siteContent.description,
  heroTagline: siteContent.heroTagline,
  bannerHeadline: siteContent.banner.headline,
  stayUpdated: siteContent.stayUpdated,
  closingLine: siteContent.closingLine,
  riskNotice: siteContent.riskNotice,
  faq: siteContent.faq.map(({ question, answer }) => ({ question, answer })),
};

describe("the content file's translations", () => {
  it('are valid for the build, and translate every word (none left as the English)', () => {
    const content = parseSiteContent(siteContent);
    for (const locale of locales.filter((l) => l !== 'en')) {
      const translated = words(content.translations[locale as Exclude<typeof locale, 'en'>]);
      const source = words(english);
      expect(translated).toHaveLength(source.length);
      for (const [i, text] of translated.entries()) expect(text, `${locale} #${i}`).not.toBe(source[i]);
    }
  });

  it("put a locale's words in place and keep the rest of the content (links, switches, which answer shows the address)", () => {
    const es = contentIn(siteContent, 'es');
    expect(es.heroTagline).toBe(siteContent.translations.es.heroTagline);
    expect(es.banner).toEqual({ headline: siteContent.translations.es.bannerHeadline, year: siteContent.banner.year });
    expect(es.faq.map((f) => f.showsContractAddress)).toEqual(siteContent.faq.map((f) => f.showsContractAddress));
    expect(es.social).toBe(siteContent.social);
    expect(contentIn(siteContent, 'en')).toBe(siteContent);
  });

  it('stop the build, naming the locale, when one misses a question or a word', () => {
    const short = { ...siteContent.translations.ar, faq: siteContent.translations.ar.faq.slice(1) };
    expect(() =>
      parseSiteContent({ ...siteContent, translations: { ...siteContent.translations, ar: short } }),
    ).toThrow(/translations\.ar\.faq: must have the same 5 questions/);
    const missing: Partial<ContentWords> = { ...siteContent.translations.es };
    delete missing.closingLine;
    expect(() =>
      parseSiteContent({ ...siteContent, translations: { ...siteContent.translations, es: missing } }),
    ).toThrow(/translations\.es\.closingLine/);
  });
});
