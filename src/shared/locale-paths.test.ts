import { describe, expect, it } from 'vitest';
import { locales } from './locales.ts';
import { localeOfPath, localePath } from './locale-paths.ts';
import { pagePaths } from './paths.ts';

describe('locale paths', () => {
  it('keeps English at the root and puts every other locale under its segment', () => {
    expect(localePath('en', pagePaths.home)).toBe('/');
    expect(localePath('en', pagePaths.privacy)).toBe('/privacy');
    expect(localePath('es', pagePaths.home)).toBe('/es/');
    expect(localePath('pt-br', pagePaths.privacy)).toBe('/pt-br/privacy');
    expect(localePath('zh-cn', pagePaths.confirm)).toBe('/zh-cn/confirm');
    expect(localePath('ar', pagePaths.unsubscribe)).toBe('/ar/unsubscribe');
  });

  it('reads the locale back from every path it writes, and the default from any other', () => {
    for (const locale of locales) {
      for (const path of Object.values(pagePaths)) {
        expect(localeOfPath(localePath(locale, path))).toEqual({ locale, rest: path });
      }
    }
    expect(localeOfPath('/es')).toEqual({ locale: 'es', rest: '' });
    expect(localeOfPath('/espresso')).toEqual({ locale: 'en', rest: '/espresso' });
    expect(localeOfPath('/ES/')).toEqual({ locale: 'en', rest: '/ES/' });
  });
});
