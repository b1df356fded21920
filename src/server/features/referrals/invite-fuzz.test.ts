import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { locales } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { isInviteCode } from '../../../shared/referrals.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { decodedBody, withoutInvite } from '../../test/invite-slot.ts';
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

// Property: the home page through an invite link is the page from memory with the slot filled,
// whatever the code and however it is spelt: a well-formed code (any spelling that decodes to one,
// percent-encoded included) gives the same bytes as the locale's `/` apart from the line and the
// code's two places, in every coding; anything else gives `/` itself; never a 5xx, and nothing of
// what was sent reaches the page but a well-formed code (so nothing unescaped). No database is
// read on this page, so one store is enough.
describe('the home page through an invite link under fuzzing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    // Made at an invite page's first visit otherwise (served as is meanwhile).
    await t.app.pages.compressInvitePages();
  });
  afterAll(() => t.close());

  const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const wellFormed = fc.string({ unit: fc.constantFrom(...base64url), minLength: 22, maxLength: 22 });
  const bent = fc
    .tuple(wellFormed, fc.nat({ max: 21 }), fc.constantFrom(...'<>"\'&=+ %#/\\\u0000\u202e😀é.'))
    .map(([c, i, ch]) => c.slice(0, i) + ch + c.slice(i + 1));
  const value = fc.oneof(wellFormed, bent, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 30 }));
  // How the value is put in the address: encoded, every byte percent-encoded, or as typed.
  const spelling = fc.constantFrom('encoded', 'percent', 'raw');
  const spell = (v: string, how: string): string => {
    if (how === 'raw') return v.replace(/[\s#&]/g, '');
    try {
      const encoded = encodeURIComponent(v);
      return how === 'percent'
        ? [...Buffer.from(v, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')
        : encoded;
    } catch {
      return escape(v); // a lone surrogate, sent as the broken bytes a client might send
    }
  };
  const accept = fc.constantFrom('br', 'gzip', 'identity', 'gzip, deflate, br', 'br;q=0, gzip');
  const where = fc.constantFrom(...locales.map((l) => localePath(l, pagePaths.home)));
  const extra = fc.constantFrom('', '&utm_source=x', '&invite=', 'ref=1&');

  it('gives the bytes of / apart from the slot, for any code in any spelling, never a 5xx', async () => {
    const plain = new Map<string, string>();
    for (const l of locales) {
      const home = localePath(l, pagePaths.home);
      plain.set(home, (await t.app.inject({ url: home, headers: { 'accept-encoding': 'identity' } })).body);
    }
    await fc.assert(
      fc.asyncProperty(where, value, spelling, accept, extra, async (home, v, how, coding, more) => {
        const query = more.endsWith('&') ? `${more}invite=${spell(v, how)}` : `invite=${spell(v, how)}${more}`;
        const url = `${home}?${query}`;
        const res = await t.app.inject({ url, headers: { 'accept-encoding': coding } });
        expect(res.statusCode, url).toBe(200);
        // Compressed as asked, as / is (before issue 38 an invite's page went out uncompressed).
        if (coding !== 'identity') expect(res.headers['content-encoding'], url).toMatch(/^(br|gzip)$/);
        const html = decodedBody(res);
        const code = /<input type="hidden" name="invite" value="([^"]*)"\/>/.exec(html)?.[1];
        if (code === undefined) {
          expect(html, url).toBe(plain.get(home));
          expect(res.headers['cache-control']).toBe('no-cache');
        } else {
          expect(code, url).toMatch(/^[A-Za-z0-9_-]{22}$/);
          expect(withoutInvite(html, code), url).toBe(plain.get(home));
          expect(res.headers['cache-control']).toBe('private, no-store');
          expect(res.headers['set-cookie']).toBeUndefined();
        }
        // A well-formed code, spelt so that it decodes to itself, is the code the page carries.
        if (how !== 'raw' && isInviteCode(v) && more !== '&invite=') expect(code, url).toBe(v);
      }),
      { numRuns: 400 },
    );
  });
});
