import { describe, expect, it } from 'vitest';
import { catalog } from './catalog.ts';
import type { Messages } from '../../src/shared/messages/index.ts';
import { locales } from '../../src/shared/locales.ts';

// Every locale speaks every surface with the same keys and parameters as English. The compiler
// checks it (catalog.ts is typed by the English files; the @ts-expect-error lines below fail
// `npm run typecheck` the day such a locale would compile); this checks it at run time too, for
// a file typed loosely.

/** Where `other` differs from `english` in shape: missing or extra keys, a string for a function… */
function shapeDifferences(english: unknown, other: unknown, path = '(root)'): string[] {
  if (typeof english !== typeof other) return [`${path}: ${typeof other} instead of ${typeof english}`];
  if (typeof english === 'function' && typeof other === 'function' && english.length !== other.length)
    return [`${path}: takes ${other.length} parameters instead of ${english.length}`];
  if (typeof english !== 'object' || english === null || other === null || typeof other !== 'object') return [];
  const a = english as Record<string, unknown>;
  const b = other as Record<string, unknown>;
  const at = (k: string) => (path === '(root)' ? k : `${path}.${k}`);
  return [
    ...Object.keys(a)
      .filter((k) => !(k in b))
      .map((k) => `${at(k)}: missing`),
    ...Object.keys(b)
      .filter((k) => !(k in a))
      .map((k) => `${at(k)}: not in English`),
    ...Object.keys(a)
      .filter((k) => k in b)
      .flatMap((k) => shapeDifferences(a[k], b[k], at(k))),
  ];
}

describe('the message catalog', () => {
  it.each(locales)('%s has every surface, key and parameter English has', (locale) => {
    expect(shapeDifferences(catalog.en, catalog[locale])).toEqual([]);
  });

  it('names what a locale misses, adds or turns into something else', () => {
    const chromeWithoutHomeLink: Partial<Messages['pageChrome']> = { ...catalog.en.pageChrome };
    delete chromeWithoutHomeLink.homeLink;
    const other = {
      ...catalog.en,
      pageChrome: chromeWithoutHomeLink,
      wallet: { ...catalog.en.wallet, extra: 'Extra' },
      linkPages: { ...catalog.en.linkPages, storeDown: 'Try again later.' },
    };
    expect(shapeDifferences(catalog.en, other).sort()).toEqual([
      'linkPages.storeDown: string instead of function',
      'pageChrome.homeLink: missing',
      'wallet.extra: not in English',
    ]);
  });

  it('does not compile a locale that misses a key or asks for other parameters', () => {
    const chromeWithoutHomeLink: Partial<Messages['pageChrome']> = { ...catalog.en.pageChrome };
    delete chromeWithoutHomeLink.homeLink;
    // @ts-expect-error: the page chrome without its home link is not a locale's words
    const missingKey: Messages = { ...catalog.en, pageChrome: chromeWithoutHomeLink };
    const storeDown = ({ minutes }: { minutes: number }) => ({ title: 'Later', message: `${minutes}` });
    // @ts-expect-error: English's storeDown takes { seconds }; a translation must take the same
    const otherParameters: Messages = { ...catalog.en, linkPages: { ...catalog.en.linkPages, storeDown } };
    expect([missingKey, otherParameters]).toHaveLength(2);
  });
});
