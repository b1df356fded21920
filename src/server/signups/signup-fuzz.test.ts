import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/built-app.ts';
import { postSignupForm, postSignupJson, visitPage, type Visitor } from '../test/visitor.ts';

// Property: whatever arrives, never a 5xx; a 2xx stored exactly one sign-up (or updated the one
// already there for that address); a 4xx stored nothing.
let t: TestApp;
let visitor: Visitor;

beforeAll(async () => {
  t = await buildTestApp({ env: { SIGNUP_RATE_LIMIT: '100000' } });
  visitor = await visitPage(t.app);
  t.clock.advance(5000);
});
afterAll(() => t.close());

const count = async () =>
  Number(
    (await t.store.db.selectFrom('subscribers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
const exists = async (email: unknown) =>
  typeof email === 'string' &&
  (await t.store.db
    .selectFrom('subscribers')
    .select('id')
    .where('email_key', '=', email.trim().toLowerCase())
    .executeTakeFirst()) !== undefined;

const text = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.constantFrom('', ' ', '\u0000', '<script>alert(1)</script>', "'; drop table subscribers; --", 'ü@例え.jp'),
);
const email = fc.oneof(fc.emailAddress(), text, fc.emailAddress().map((e) => `  ${e.toUpperCase()} `));
const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }));
const body = fc.oneof(
  fc.record({ name: text, email, comment: fc.option(text, { nil: undefined }) }, { requiredKeys: ['name', 'email'] }),
  fc.dictionary(fc.constantFrom('name', 'email', 'comment', 'extra', '__proto__', 'constructor'), value),
  fc.anything(),
);

describe('POST /signup under fuzzing', () => {
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
});
