import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultLocale, isLocale, locales, localeTag, translatedLocales } from '../../src/shared/locales.ts';
import { readFolders } from '../../src/shared/messages/folders.ts';
import { localeInfo, unreviewedLocales } from './locale-info.ts';
import { unspokenLocale } from '../../src/server/test/locales-kit.ts';

// A locale is one line in the registry (src/shared/locales.ts) and one folder here. The compiler
// checks each folder's files against their types; this names a registry line whose folder is
// missing a file, and a folder no line registers.

/** The files every locale's folder holds (English's site words are the content file itself). */
const files = [
  'index.ts',
  'meta.ts',
  'allowlist.ts',
  'broadcast-email.ts',
  'confirmation-email.ts',
  'connection.ts',
  'countdown.ts',
  'http-errors.ts',
  'link-pages.ts',
  'page-chrome.ts',
  'privacy.ts',
  'referrals.ts',
  'signup.ts',
  'suppression-reasons.ts',
  'terms.ts',
  'wallet-link.ts',
  'wallet.ts',
];
const here = import.meta.dirname;
const folders = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('the locale registry and its folders', () => {
  it.each(locales)('%s has its folder, with every file a locale holds', (locale) => {
    const held = folders.includes(locale) ? readdirSync(path.join(here, locale)) : [];
    const needed = locale === defaultLocale ? files : [...files, 'site-words.ts'];
    expect(
      needed.filter((file) => !held.includes(file)).map((file) => `content/messages/${locale}/${file}`),
      `the registry names ${locale}; its folder is missing`,
    ).toEqual([]);
  });

  it('has no folder that no registry line names', () => {
    expect(folders.filter((folder) => !isLocale(folder))).toEqual([]);
  });

  it("stops the tables' import, naming the locale and the file, when a registry line has no folder", async () => {
    await expect(
      readFolders(['en', 'xx'], (locale) => import(`./${locale}/meta.ts`), 'meta', 'meta.ts'),
    ).rejects.toThrow(/"xx" is in the registry \(src\/shared\/locales\.ts\) but content\/messages\/xx\/meta\.ts/);
  });
});

describe('the locales', () => {
  it('give <html lang> a canonical BCP 47 tag, and each its own lower-case URL segment', () => {
    for (const locale of locales) {
      const { tag, segment } = localeInfo[locale];
      expect(Intl.getCanonicalLocales(tag)).toEqual([tag]);
      expect(tag).toBe(localeTag(locale));
      expect(segment).toBe(segment.toLowerCase());
    }
    const segments = locales.map((l) => localeInfo[l].segment);
    expect(new Set(segments).size).toBe(segments.length);
    // English keeps the root: the addresses already published and in sent emails stay.
    expect(localeInfo[defaultLocale].segment).toBe('');
    expect(localeInfo['pt-br'].tag).toBe('pt-BR');
  });

  it("write each language in its script's direction: Arabic right to left, English left to right", () => {
    // Intl knows each language's direction (Intl.Locale's getTextInfo, not in TypeScript's ES2023 lib).
    type WithTextInfo = Intl.Locale & { getTextInfo: () => { direction: 'ltr' | 'rtl' } };
    const direction = (tag: string) => (new Intl.Locale(tag) as WithTextInfo).getTextInfo().direction;
    for (const locale of locales) expect(localeInfo[locale].dir, locale).toBe(direction(localeInfo[locale].tag));
    expect([localeInfo.ar.dir, localeInfo.en.dir]).toEqual(['rtl', 'ltr']);
  });

  it('know their own codes and nothing else', () => {
    expect(locales.every(isLocale)).toBe(true);
    for (const other of ['pt-BR', 'pt', 'zh', 'xx', unspokenLocale, '', null, 'toString', 'constructor'])
      expect(isLocale(other)).toBe(false);
    // The tests' example of a language the site does not speak can never be a registry line: its
    // <html lang> tag (localeTag) cannot be made.
    expect(() => Intl.getCanonicalLocales(unspokenLocale)).toThrow(RangeError);
    expect(translatedLocales).toEqual(locales.filter((l) => l !== defaultLocale));
  });

  it('list every translation still a draft, and English as reviewed', () => {
    expect(localeInfo.en.review.reviewed).toBe(true);
    // Each folder's meta.ts says whether a native speaker has reviewed it; the drafts in registry order.
    expect(unreviewedLocales()).toEqual(translatedLocales.filter((l) => !localeInfo[l].review.reviewed));
    expect(unreviewedLocales()).toContain('es');
  });

  it('each keep their own consent version, and draw a share image unless no font can', () => {
    const versions = locales.map((l) => localeInfo[l].consentVersion);
    expect(new Set(versions).size).toBe(versions.length);
    expect(localeInfo.en.consentVersion).toBe('2026-11-21');
    // The build's DejaVu has no Chinese characters; it draws Latin, Arabic and Cyrillic.
    expect(localeInfo['zh-cn'].shareImageFont).toBeNull();
    expect(localeInfo.es.shareImageFont).toBe('DejaVu Sans');
  });
});
