import { describe, expect, it, type TestContext } from 'vitest';
import { fieldErrorText, formErrorText, signupFields, signupLimits } from '../../src/shared/signup-schema.ts';
import { countdownMessages as arabicCountdown } from './ar/countdown.ts';
import { signupMessages } from './en/signup.ts';
import { catalog } from './catalog.ts';
import { localeInfo } from './locale-info.ts';
import { siteWords } from './site-words.ts';
import { countdownMessages as spanishCountdown } from './es/countdown.ts';
import { defaultLocale, locales, translatedLocales, type Locale } from '../../src/shared/locales.ts';

// What the compiler cannot see in a translation: a sentence left empty, a placeholder dropped, a
// string left in English. Run on every locale's words with sample parameters; the checks are crude
// on purpose (a native speaker's review is the real one, each folder's meta.ts), but each catches a mistake
// a translator makes.

/** Parameters every message function is called with; the form's errors take the form's limits. */
const sample = {
  site: 'Diamond Hand (DH)',
  name: 'Diamond Hand',
  network: 'Ethereum',
  year: 2031,
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  title: 'Zyzzyva',
  seconds: 37,
  days: 12,
  hours: 13,
  minutes: 14,
  wallet: 'Zorrowallet',
  button: 'Zorrobutton',
  chainId: 11155111,
  since: '2031-05-06',
  domain: 'dh.example',
  uri: 'https://dh.example/',
  // The sign-up's refusals of a message as a whole list the form's fields by their labels.
  fields: 'Zorrofields',
  required: 'Zorrorequired',
};
const paramsAt = (path: string): object => (path.startsWith('signup.fieldErrors.') ? signupLimits : sample);

/** Strings that stay as they are in every language, and why. */
const sameAsEnglish: Record<string, string> = {
  'maxmind.com': 'a domain name',
  'DB-IP.com': 'a domain name',
  Cookies: 'the word in Spanish and Portuguese as well',
};
/** Messages kept as English's: every word a parameter ("© 2031 Diamond Hand (DH)"), or ASCII by law. */
const keptAsEnglish: Record<string, string> = {
  'pageChrome.copyright': 'only parameters',
  'pageChrome.titled': 'only parameters',
  'allowlist.walletRefusals.statement.join': 'EIP-4361: a statement is ASCII; the server checks English',
  'allowlist.walletRefusals.statement.leave': 'EIP-4361: a statement is ASCII; the server checks English',
  'referrals.shareX': "a network's own name (the invite page's share links)",
  'referrals.shareTelegram': "a network's own name (the invite page's share links)",
};
/** Names kept in English in every locale (the brand, products, settings' own names). */
const keptNames = new Set(
  'diamond hand hodl ethereum telegram twitter maxmind geolite2 global privacy control track javascript json https name example com'.split(
    ' ',
  ),
);

interface Leaf {
  /** Where it is: `linkPages.storeDown.message`, `privacy.sections[2].blocks[0].p[1]`. */
  path: string;
  text: string;
  /** A `{ code }` part of rich text: an address or a cookie's name, never translated. */
  code: boolean;
  /** The message function it came out of, if any. */
  from?: string;
}

/** Every string in a locale's words, calling each function with the sample parameters. */
function leaves(value: unknown, path: string, from?: string): Leaf[] {
  if (typeof value === 'string') return [{ path, text: value, code: false, ...(from ? { from } : {}) }];
  if (typeof value === 'function') return leaves((value as (p: object) => unknown)(paramsAt(path)), path, path);
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${i}]`, from));
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.code === 'string' && Object.keys(record).length === 1)
      return [{ path, text: record.code, code: true, ...(from ? { from } : {}) }];
    if (typeof record.link === 'string') return leaves(record.link, `${path}.link`, from);
    return Object.keys(record).flatMap((k) => leaves(record[k], path ? `${path}.${k}` : k, from));
  }
  return [];
}

const english = leaves(catalog[defaultLocale], '');
const others = translatedLocales;

/** "1,000", "1.000", "1 000" and "1000" alike, so a number counts however a locale groups it. */
const ungrouped = (text: string) => text.replace(/(\d)[,.\u00a0\u202f\u066c ](?=\d)/g, '$1');
const byFunction = (all: Leaf[]) => {
  const texts = new Map<string, string>();
  for (const leaf of all) if (leaf.from) texts.set(leaf.from, `${texts.get(leaf.from) ?? ''}\n${ungrouped(leaf.text)}`);
  return texts;
};

/** Lower-case words of three letters or more in English's sentences, less the names kept. */
const englishWords = new Set(
  english
    .filter((l) => !l.code)
    .flatMap((l) => l.text.toLowerCase().match(/[a-z]{3,}/g) ?? [])
    .filter((w) => !keptNames.has(w)),
);
/** Runs of three or more English words in a row: an English phrase left in a translation. */
function englishRuns(text: string): string[] {
  const runs: string[] = [];
  let run: string[] = [];
  for (const token of [...text.split(/[\s,.;:!?()«»“”"—–·、，。：；（）！？]+/), '']) {
    if (/^[A-Za-z]{3,}$/.test(token) && englishWords.has(token.toLowerCase())) run.push(token);
    else {
      if (run.length >= 3) runs.push(run.join(' '));
      run = [];
    }
  }
  return runs;
}

/**
 * A sign-up field's label and refusals that a locale shows in English: a draft locale borrows
 * them (its signup.ts spreads English's) until a translator words them, so adding a field costs
 * its English words only; a reviewed locale borrows nothing.
 */
const fieldWordPath = /^signup\.(labels|fieldErrors)\./;
const borrowedFieldWords = (locale: Locale): string[] => {
  const englishAt = new Map(english.map((l) => [l.path, l.text]));
  return leaves(catalog[locale], '')
    .filter((l) => fieldWordPath.test(l.path) && englishAt.get(l.path) === l.text)
    .map((l) => l.path);
};

/** A translation's words with its site words (its site-words.ts), for comparing with another's. */
const translationWords = (locale: (typeof translatedLocales)[number]): Leaf[] => [
  ...leaves(catalog[locale], ''),
  ...leaves(siteWords[locale], 'siteWords'),
];
/** Words of a string: runs of letters, and each Chinese or Japanese character, which stand alone. */
const wordCount = (text: string): number =>
  text.match(/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]|(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])\p{L})+/gu)
    ?.length ?? 0;
const language = (locale: Locale): string => new Intl.Locale(localeInfo[locale].tag).language;

/**
 * What a translation copied from another: words it shows that another translation shows, word for
 * word, at the same place. Two languages do not word a sentence alike, so such a string is a copy
 * unless it is (1) as English has it there (a name, an address, a number, the coin's name stay as
 * they are in every language; the checks above deal with English), (2) shorter than three words
 * (related languages spell some single words alike: Spanish and Portuguese "Enviar", "horas"), or
 * (3) shared with a regional variant of its own language (es-MX with es), whose words it may keep.
 * A copy is counted against the later of the two registry lines: a new locale is copied from one
 * already there, and its line goes after it.
 */
function copiedWords(locale: (typeof translatedLocales)[number]): { from: Locale; path: string }[] {
  const earlier = translatedLocales.slice(0, translatedLocales.indexOf(locale));
  return earlier
    .filter((other) => language(other) !== language(locale))
    .flatMap((other) =>
      copiedPaths(translationWords(locale), translationWords(other)).map((path) => ({ from: other, path })),
    );
}
/** Where `mine` has a string of three words or more as `theirs` has it and English does not. */
function copiedPaths(mine: Leaf[], theirs: Leaf[]): string[] {
  const englishAt = new Map(english.map((l) => [l.path, l.text]));
  const theirsAt = new Map(theirs.map((l) => [l.path, l.text]));
  return mine
    .filter((l) => !l.code && theirsAt.get(l.path) === l.text)
    .filter((l) => englishAt.get(l.path) !== l.text && wordCount(l.text) >= 3)
    .map((l) => l.path);
}
/** "from es: privacy 61, confirmationEmail 12": the copies by locale and by surface, for a reader. */
function copiedSummary(copied: { from: Locale; path: string }[]): string {
  const counts = new Map<string, number>();
  for (const { from, path } of copied) {
    const key = `${from}\u0000${/^[^.[]+/.exec(path)?.[0] ?? path}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...new Set(copied.map((c) => c.from))]
    .map((from) => {
      const surfaces = [...counts].filter(([k]) => k.startsWith(`${from}\u0000`));
      return `from ${from}: ${surfaces.map(([k, n]) => `${k.split('\u0000')[1]} ${n}`).join(', ')}`;
    })
    .join('; ');
}

/**
 * A draft's borrowed words, where a reader of the run sees them: as the test's annotation (which CI
 * reporters show) and on the run's output, since the default reporter shows no annotations.
 */
async function listBorrowed(annotate: TestContext['annotate'], message: string, paths: string[]): Promise<void> {
  console.warn(`${message}\n  ${paths.join('\n  ')}`);
  await annotate(message, { contentType: 'text/plain', body: paths.join('\n') });
}

describe.each(others)('the %s translation', (locale) => {
  const words = leaves(catalog[locale], '');
  const borrowed = new Set(borrowedFieldWords(locale));

  it("words every sentence itself once reviewed; a draft's words copied from another translation are listed", async ({
    annotate,
  }) => {
    const copied = copiedWords(locale).map((c) => `${c.path} (from ${c.from})`);
    if (localeInfo[locale].review.reviewed) expect(copied).toEqual([]);
    else if (copied.length > 0) {
      const summary = copiedSummary(copiedWords(locale));
      await listBorrowed(
        annotate,
        `${locale} shows ${copied.length} strings copied from another translation, until translated: ${summary}`,
        copied,
      );
    }
  });

  it("words every sign-up field itself once reviewed; a draft's borrowed English field words are listed", async ({
    annotate,
  }) => {
    if (localeInfo[locale].review.reviewed) expect([...borrowed]).toEqual([]);
    else if (borrowed.size > 0)
      await listBorrowed(annotate, `${locale} shows in English, until translated`, [...borrowed]);
  });

  it('has every section, list item and sentence English has, once its functions are called', () => {
    // A rich text's parts may be more or fewer (a language moves its link), so the last index goes.
    const shape = (all: Leaf[]) => [...new Set(all.map((l) => l.path.replace(/\[\d+\](\.link)?$/, '')))].sort();
    expect(shape(words)).toEqual(shape(english));
  });

  it('has no empty sentence', () => {
    expect(words.filter((l) => l.text.trim() === '').map((l) => l.path)).toEqual([]);
  });

  it('puts in every parameter English puts in', () => {
    const englishTexts = byFunction(english);
    const translated = byFunction(words);
    const dropped = [...englishTexts].flatMap(([path, text]) =>
      Object.values(paramsAt(path))
        .map((v) => ungrouped(String(v)))
        .filter((v) => text.includes(v) && !(translated.get(path) ?? '').includes(v))
        .map((v) => `${path}: ${v}`),
    );
    expect(dropped).toEqual([]);
  });

  it('leaves nothing as it is in English but names that stay', () => {
    const englishAt = new Map(english.map((l) => [l.path, l.text]));
    const untranslated = words
      .filter((l) => !l.code && englishAt.get(l.path) === l.text && !borrowed.has(l.path))
      .filter((l) => !(l.text in sameAsEnglish) && !(l.path in keptAsEnglish) && !((l.from ?? '') in keptAsEnglish))
      .map((l) => `${l.path}: ${l.text}`);
    expect(untranslated).toEqual([]);
  });

  it('has no English phrase left inside a sentence', () => {
    // A borrowed field word is English on purpose, and listed above.
    const left = words
      .filter((l) => !l.code && !(l.path in keptAsEnglish) && !borrowed.has(l.path))
      .flatMap((l) => englishRuns(l.text).map((run) => `${l.path}: ${run}`));
    expect(left).toEqual([]);
  });
});

describe('the crude checks themselves', () => {
  it('see a dropped placeholder, an untranslated sentence and an English phrase', () => {
    const dropped = leaves({ linkPages: { storeDown: () => 'Vuelve más tarde.' } }, '');
    expect(byFunction(dropped).get('linkPages.storeDown')).not.toContain('37');
    expect(englishRuns('Revisa tu conexión. Please try again in a minute.')).toEqual(['Please try again']);
    expect(englishRuns('Conectar billetera con Diamond Hand en Ethereum')).toEqual([]);
  });

  it("see a sentence copied from another translation, but not a shared word, English's words or a name", () => {
    const spanish = {
      privacy: { intro: 'Este aviso explica qué guardamos.' },
      signup: { submit: 'Enviar' },
      pageChrome: { copyright: () => '© 2031 Diamond Hand (DH)' },
      broadcastEmail: { hello: '你好，欢迎来到这里' },
    };
    const copy = leaves(spanish, '');
    expect(copiedPaths(copy, copy)).toEqual(['privacy.intro', 'broadcastEmail.hello']);
    const french = leaves({ ...spanish, privacy: { intro: 'Cet avis explique ce que nous gardons.' } }, '');
    expect(copiedPaths(french, copy)).toEqual(['broadcastEmail.hello']);
  });
});

describe('plurals', () => {
  it('Spanish says one day and many days', () => {
    expect(spanishCountdown.opensIn({ days: 1, hours: 0, minutes: 1 })).toBe('La preventa abre en 1 día y 1 minuto');
    expect(spanishCountdown.opensIn({ days: 2, hours: 3, minutes: 4 })).toBe(
      'La preventa abre en 2 días, 3 horas y 4 minutos',
    );
  });

  it('Arabic gives one, two, few, many and other their own forms', () => {
    expect(arabicCountdown.opensIn({ days: 2, hours: 1, minutes: 0 })).toBe('يبدأ البيع المسبق بعد يومين وساعة واحدة');
    expect(arabicCountdown.opensIn({ days: 3, hours: 11, minutes: 2 })).toBe(
      'يبدأ البيع المسبق بعد 3 أيام و11 ساعةً ودقيقتين',
    );
    expect(arabicCountdown.opensIn({ days: 100, hours: 0, minutes: 0 })).toBe('يبدأ البيع المسبق بعد 100 يوم');
    expect(catalog.ar.signup.fieldErrors['comment.tooLong'](signupLimits)).toBe(
      'لا يمكن أن يزيد تعليقك على 1,000 حرف.',
    );
  });
});

describe("the sign-up form's refusals", () => {
  it("name the schema's limits (src/shared/signup-schema.ts's signupLimits)", () => {
    expect(fieldErrorText(signupMessages, 'name.tooLong')).toBe('Your name can be at most 100 characters.');
    expect(fieldErrorText(signupMessages, 'comment.tooLong')).toBe('Your comment can be at most 1,000 characters.');
  });

  it("name the form's fields by their labels, read from the field list, in the page's language", () => {
    const refusal = (locale: Locale, code: 'form.unknownFields' | 'form.shape') =>
      formErrorText(catalog[locale].signupAnswers, catalog[locale].signup, code, locale);
    expect(refusal('es', 'form.unknownFields')).toMatch(
      /^Este formulario solo admite estos campos: Nombre, Correo electrónico(,| y) Comentario\b.*\.$/,
    );
    expect(refusal('en', 'form.shape')).toBe('Please send at least these fields: Name and Email.');
    for (const locale of locales)
      for (const field of signupFields)
        expect(refusal(locale, 'form.unknownFields')).toContain(catalog[locale].signup.labels[field]);
  });
});
