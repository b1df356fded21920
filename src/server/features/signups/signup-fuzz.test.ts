import { normaliseEmail } from '../../../shared/signup-schema.ts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { safeParse } from 'fast-content-type-parse';
import { postSignupForm, postSignupJson, visitPage, type Visitor } from '../../test/visitor.ts';

// Property: whatever arrives, never a 5xx; a 2xx stored exactly one sign-up (or updated the one
// already there for that address); a 4xx stored nothing.
// On both databases: PostgreSQL refuses what SQLite stores (a NUL in text was a 500 there).
for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`POST /signup under fuzzing on ${label}`, () => {
    let store: TestStore;
    let t: TestApp;
    let visitor: Visitor;

    beforeAll(async () => {
      store = await openTestStore(dialect);
      t = await buildTestApp({ store, env: { SIGNUP_RATE_LIMIT: '100000' } });
      visitor = await visitPage(t.app);
      t.clock.advance(5000);
    });
    afterAll(async () => {
      await t.close();
      await store.destroy();
    });

    const count = async () =>
      Number(
        (
          await t.store.db
            .selectFrom('subscribers')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    // PostgreSQL cannot even be asked about a text holding NUL; no stored address holds one. The
    // key is looked up as the server stores it (an IDN domain in its punycode form).
    const exists = async (email: unknown) =>
      typeof email === 'string' &&
      !email.includes('\u0000') &&
      (await t.store.db
        .selectFrom('subscribers')
        .select('id')
        .where('email_key', '=', normaliseEmail(email).toLowerCase())
        .executeTakeFirst()) !== undefined;

    // Control, format and separator characters a hostile name or comment might carry.
    const hostileChar = fc.constantFrom(
      '\u0000',
      '\u0001',
      '\u0007',
      '\b',
      '\t',
      '\n',
      '\r',
      '\u000b',
      '\u000c',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u009b',
      '\u00ad',
      '\u061c',
      '\u200b',
      '\u200c',
      '\u200d',
      '\u200e',
      '\u200f',
      '\u2028',
      '\u2029',
      '\u202a',
      '\u202e',
      '\u2060',
      '\u2066',
      '\u2069',
      '\ufeff',
      '\ud800',
      '\udfff',
      'https://',
      'www.',
      '.example/login',
    );
    const text = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.string({ unit: fc.oneof(hostileChar, fc.string({ minLength: 1, maxLength: 1 })), maxLength: 40 }),
      fc.constantFrom(
        '',
        ' ',
        '\u0000',
        '<script>alert(1)</script>',
        "'; drop table subscribers; --",
        'ü@例え.jp',
        'ana@bücher.de',
      ),
    );
    const email = fc.oneof(
      fc.emailAddress(),
      text,
      fc.emailAddress().map((e) => `  ${e.toUpperCase()} `),
    );
    const value = fc.oneof(
      text,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 2 }),
    );
    const body = fc.oneof(
      fc.record(
        { name: text, email, comment: fc.option(text, { nil: undefined }) },
        { requiredKeys: ['name', 'email'] },
      ),
      fc.dictionary(fc.constantFrom('name', 'email', 'comment', 'extra', '__proto__', 'constructor'), value),
      fc.anything(),
    );

    it('JSON bodies: no 5xx; 2xx ⇔ exactly one stored row for that address; 4xx stores nothing', async () => {
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          const before = await count();
          const email = typeof b === 'object' && b !== null ? (b as { email?: unknown }).email : undefined;
          const existed = await exists(email);
          const res = await postSignupJson(t.app, visitor, b);
          expect(res.statusCode).toBeLessThan(500);
          const after = await count();
          if (res.statusCode < 300) {
            expect(after).toBe(existed ? before : before + 1);
            expect(await exists(email)).toBe(true);
          } else {
            expect(res.statusCode).toBeGreaterThanOrEqual(400);
            expect(after).toBe(before);
          }
        }),
        { numRuns: 150 },
      );
    });

    it('raw bytes as JSON or form: no 5xx, and nothing stored on a 4xx', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 300 }), fc.boolean(), async (raw, asForm) => {
          const before = await count();
          const res = asForm
            ? await postSignupForm(t.app, visitor, { raw })
            : await postSignupJson(t.app, visitor, raw);
          expect(res.statusCode).toBeLessThan(500);
          if (res.statusCode >= 400) expect(await count()).toBe(before);
        }),
        { numRuns: 100 },
      );
    });

    // Odd spellings of Content-Type: whatever the case, spaces or parameters, a body without the
    // XSRF header is stored only when it is the plain web form (which the same-origin check covers).
    const mediaType = fc.constantFrom(
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data',
      'application/jsonx',
      '',
    );
    const spelling = fc
      .record({
        type: mediaType,
        upper: fc.array(fc.boolean(), { maxLength: 40 }),
        before: fc.constantFrom('', ' ', '\t'),
        params: fc.constantFrom(
          '',
          ';',
          '; charset=UTF-8',
          ';charset="utf-8"',
          ' ; q=1',
          '; boundary=x',
          ', text/html',
          ';;',
        ),
      })
      .map(
        ({ type, upper, before, params }) =>
          before + [...type].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('') + params,
      );

    it('odd Content-Type spellings: no 5xx; without the token nothing is stored unless it is the plain form', async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(spelling, fc.boolean(), fc.boolean(), async (contentType, withToken, asJson) => {
          n += 1;
          const person = { name: 'Fuzz', email: `ct${n}@example.com` };
          const res = await t.app.inject({
            method: 'POST',
            url: '/signup',
            headers: {
              'content-type': contentType,
              accept: 'application/json',
              'sec-fetch-site': 'same-origin',
              cookie: visitor.cookie,
              ...(withToken ? { 'x-xsrf-token': visitor.xsrf } : {}),
            },
            payload: asJson ? JSON.stringify(person) : new URLSearchParams(person).toString(),
          });
          expect(res.statusCode).toBeLessThan(500);
          const stored = await exists(person.email);
          if (!withToken && safeParse(contentType).type !== 'application/x-www-form-urlencoded')
            expect(stored).toBe(false);
          if (res.statusCode >= 400) expect(stored).toBe(false);
        }),
        { numRuns: 150 },
      );
    });
  });
}
