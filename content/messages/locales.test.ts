import { describe, expect, it } from 'vitest';
import { defaultLocale, isLocale, localeInfo, locales } from './locales.ts';
import { translationReviews, unreviewedLocales } from './review.ts';

describe('the locales', () => {
  it('give <html lang> a canonical BCP 47 tag, and each its own lower-case URL segment', () => {
    for (const locale of locales) {
      const { tag, segment } = localeInfo[locale];
      expect(Intl.getCanonicalLocales(tag)).toEqual([tag]);
      expect(segment).toBe(segment.toLowerCase());
    }
    const segments = locales.map((l) => localeInfo[l].segment);
    expect(new Set(segments).size).toBe(segments.length);
    // English keeps the root: the addresses already published and in sent emails stay.
    expect(localeInfo[defaultLocale].segment).toBe('');
  });

  it('write Arabic right to left and the others left to right', () => {
    expect(locales.filter((l) => localeInfo[l].dir === 'rtl')).toEqual(['ar']);
  });

  it('know their own codes and nothing else', () => {
    expect(locales.every(isLocale)).toBe(true);
    for (const other of ['pt-BR', 'pt', 'zh', 'xx', '', null]) expect(isLocale(other)).toBe(false);
  });

  it('list every translation still a draft, and English as reviewed', () => {
    expect(translationReviews.en.reviewed).toBe(true);
    expect(unreviewedLocales()).toEqual(['es', 'pt-br', 'zh-cn', 'ar']);
  });
});
