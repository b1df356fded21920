import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { locales } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { inviteCodeIn, invitePagePathIn, joinFrom, referralTestEnv } from '../../test/referral-kit.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';

// Property: the invite routes (the invite page and the home page's `?invite=`), asked anything in
// any spelling, by any method, at every locale's address, answer a page in words, never a 5xx,
// and a signed link's page changes nothing unless pressed. On both databases: PostgreSQL refuses
// what SQLite takes (a NUL in text).
for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`the invite routes under fuzzing on ${label}`, () => {
    let store: TestStore;
    let t: TestApp;
    let good: { id: string; sig: string; code: string };

    beforeAll(async () => {
      store = await openTestStore(dialect);
      const mailer = memoryMailer();
      t = await buildTestApp({ store, mailer, env: referralTestEnv });
      const page = await joinFrom(t, mailer, { email: 'ada@example.com', ip: '203.0.113.1' });
      const query = new URL(invitePagePathIn(page.body), 'https://dh.example').searchParams;
      good = { id: query.get('id') ?? '', sig: query.get('sig') ?? '', code: inviteCodeIn(page.body) };
    });
    afterAll(async () => {
      await t.close();
      await store.destroy();
    });

    const hostile = fc.constantFrom(
      '\u0000',
      '%00',
      '%',
      '%ZZ',
      '&',
      '=',
      '#',
      '+',
      ' ',
      '\u202e',
      '\ud800',
      '😀',
      '..',
      '[]',
      '"',
      '<',
    );
    // A value: anything, a hostile piece, or the good one bent (cut, case changed, a piece added).
    const value = (goodOne: string) =>
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        hostile,
        fc.constant(goodOne),
        fc.nat({ max: goodOne.length }).map((n) => goodOne.slice(0, n)),
        fc.constant(goodOne.toUpperCase()),
        hostile.map((h) => goodOne + h),
      );
    const field = fc.constantFrom('id', 'sig', 'invite', 'id[]', 'sig[0]', 'ID', 'token');
    // Built once the good link exists (beforeAll), so its bent spellings are among the tries.
    const pairsArb = () =>
      fc.array(fc.tuple(field, fc.oneof(value(good.id), value(good.sig), value(good.code))), { maxLength: 5 });
    const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') as fc.Arbitrary<
      'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS'
    >;
    const where = fc.constantFrom(
      ...locales.flatMap((l) => [localePath(l, pagePaths.invite), localePath(l, pagePaths.home)]),
    );
    const enc = (s: string) => {
      try {
        return encodeURIComponent(s);
      } catch {
        return escape(s); // a lone surrogate: sent as the broken bytes a client might send
      }
    };

    it('answers every query in words, never a 5xx', async () => {
      // The good link itself, whole, is among the answers in words (a page, 200).
      const whole = await t.app.inject({ url: `${pagePaths.invite}?id=${enc(good.id)}&sig=${good.sig}` });
      expect(whole.statusCode).toBe(200);
      await fc.assert(
        fc.asyncProperty(method, where, pairsArb(), fc.boolean(), async (m, path, query, raw) => {
          const search = query.map(([k, v]) => `${k}=${raw ? v.replace(/[\s#]/g, '') : enc(v)}`).join('&');
          const res = await t.app.inject({
            method: m,
            url: `${path}?${search}`,
            headers: {
              accept: 'text/html',
              'content-type': 'application/x-www-form-urlencoded',
              'x-forwarded-for': '203.0.113.9',
            },
            ...(m === 'GET' || m === 'HEAD' ? {} : { payload: '' }),
          });
          expect(res.statusCode, `${m} ${path}?${search}`).toBeLessThan(500);
          if (m !== 'HEAD' && res.statusCode !== 204 && res.statusCode !== 304) {
            expect(res.headers['content-type'], `${m} ${path}?${search}`).toMatch(/^text\/html|^application\/json/);
            expect(res.body).not.toMatch(/at .+\.ts:\d+|Error:/);
          }
          if (path.endsWith(pagePaths.invite) && (m === 'GET' || m === 'POST') && res.statusCode >= 400) {
            const said = locales.some((l) => res.body.includes(messagesFor(l).referrals.brokenLink.title));
            expect(said, `${m} ${path}?${search}`).toBe(true);
          }
        }),
        { numRuns: 300 },
      );
    });

    it('changes nothing on GET or HEAD, whatever is asked', async () => {
      const rows = () =>
        Promise.all([
          store.db.selectFrom('referral_codes').selectAll().execute(),
          store.db.selectFrom('referral_attributions').selectAll().execute(),
        ]);
      const before = await rows();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'HEAD') as fc.Arbitrary<'GET' | 'HEAD'>,
          where,
          pairsArb(),
          async (m, path, query) => {
            const search = query.map(([k, v]) => `${k}=${enc(v)}`).join('&');
            expect((await t.app.inject({ method: m, url: `${path}?${search}` })).statusCode).toBeLessThan(500);
          },
        ),
        { numRuns: 100 },
      );
      expect(await rows()).toEqual(before);
    });
  });
}
