import { describe, expect, it } from 'vitest';
import { unspokenLocale } from '../../test/locales-kit.ts';
import { countedPage, localeOfPage, localePath } from './page-locale.ts';

describe('pages per locale', () => {
  it("writes a page's URL in each locale, English at the root", () => {
    expect(localePath('en', '/')).toBe('/');
    expect(localePath('es', '/')).toBe('/es/');
    expect(localePath('pt-br', '/privacy')).toBe('/pt-br/privacy');
  });

  it('counts our pages by name in every locale, anything else as (other) within its locale', () => {
    expect(countedPage('/')).toBe('/');
    expect(countedPage('/privacy')).toBe('/privacy');
    expect(countedPage('/es/')).toBe('/es/');
    expect(countedPage('/es')).toBe('/es/');
    expect(countedPage('/ar/privacy')).toBe('/ar/privacy');
    expect(countedPage('/zh-cn/confirm')).toBe('/zh-cn/confirm');
    expect(countedPage('/es/wp-login.php')).toBe('/es/(other)');
    expect(countedPage('/wp-login.php')).toBe('(other)');
    // Not a locale's segment: the root's (other), not a locale of its own.
    expect(countedPage(`/${unspokenLocale}/`)).toBe('(other)');
    expect(countedPage('/español/')).toBe('(other)');
  });

  it('reads the locale of a counted page from its first segment, else the default', () => {
    expect(localeOfPage('/')).toBe('en');
    expect(localeOfPage('(other)')).toBe('en');
    expect(localeOfPage('/privacy')).toBe('en');
    expect(localeOfPage('/es/')).toBe('es');
    expect(localeOfPage('/pt-br/privacy')).toBe('pt-br');
    expect(localeOfPage('/ar/(other)')).toBe('ar');
  });
});
