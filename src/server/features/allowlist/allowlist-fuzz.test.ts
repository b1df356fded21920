import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { apiErrorSchema } from '../../../shared/api-error.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { locales } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { apiPaths, pagePaths } from '../../../shared/paths.ts';
import { fillPath } from '../../../shared/route-contract.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { testAccount } from '../../test/test-account.ts';
import { postJsonAs, visitPage, type Visitor } from '../../test/visitor.ts';

// Property: whatever reaches the allowlist's public routes, never a 5xx; every refusal is words in
// the one error shape; nothing is put on the list or signed up by a message nobody signed.
// On both databases: PostgreSQL refuses text SQLite stores (a NUL).
const writes = [apiPaths.allowlistChallenge, apiPaths.allowlistJoin, apiPaths.allowlistLeave, apiPaths.allowlistLink];

// Hostile spellings of an address: invisible characters, lookalike letters and digits, encodings.
const hostileAddresses = (address: string): string[] => [
  `${address.slice(0, 10)}\u200b${address.slice(10)}`,
  `\u202e${address}`,
  address.replace('0x', '0\u0445'), // Cyrillic kha for x
  address.replace(/[0-9]/, (d) => String.fromCharCode(0xff10 + Number(d))), // a fullwidth digit
  address.replace('0x', '%30%78'),
  address.replace('0x', '&#x30;x'),
  `${address}0`,
  address.slice(0, -1),
  address.slice(2),
  `${address}\u0000`,
  ` ${address} `,
  `${address}.eth`,
];

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`the allowlist's public routes under fuzzing on ${label}`, () => {
    let store: TestStore;
    let t: TestApp;
    let visitor: Visitor;

    beforeAll(async () => {
      store = await openTestStore(dialect);
      t = await buildTestApp({
        store,
        content: parseSiteContent({ ...siteContent, wallet: { mode: 'allowlist', chainId: 1 } }),
        env: { ALLOWLIST_RATE_LIMIT: '100000' },
      });
      visitor = await visitPage(t.app);
      t.clock.advance(5_000);
    });
    afterAll(async () => {
      await t.close();
      await store.destroy();
    });

    const counts = async () => {
      const n = async (table: 'allowlist_entries' | 'subscribers') =>
        Number(
          (
            await t.store.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return { entries: await n('allowlist_entries'), subscribers: await n('subscribers') };
    };
    const refusedInWords = (res: { statusCode: number; body: string }) => {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      const error = apiErrorSchema.safeParse(JSON.parse(res.body));
      expect(error.success, res.body).toBe(true);
      expect(error.data?.error.message.length).toBeGreaterThan(10);
    };

    // Strings with the characters a hostile body carries, and shapes close to a real message.
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.constantFrom('', '\u0000', '0x', `0x${'00'.repeat(65)}`, 'x'.repeat(5000), '{"a":1}', 'Nonce: 1'),
    );
    const body = fc.oneof(
      fc.anything({ maxDepth: 2 }),
      fc.record(
        {
          address: text,
          purpose: fc.oneof(text, fc.constantFrom('join', 'leave')),
          message: text,
          signature: text,
          linkToken: text,
          name: text,
          email: text,
        },
        { requiredKeys: [] },
      ),
    );

    it('never a 5xx; a refusal is words in the one error shape; nothing joined or signed up', async () => {
      const before = await counts();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...writes), body, async (url, payload) => {
          const res = await postJsonAs(t.app, visitor, url, payload);
          expect(res.statusCode, res.body).toBeLessThan(500);
          // Only a challenge can succeed without a signature: it writes a nonce, nothing else.
          if (res.statusCode >= 300 || url !== apiPaths.allowlistChallenge) refusedInWords(res);
        }),
        { numRuns: 150 },
      );
      expect(await counts()).toEqual(before);
    });

    it('reads answer an address in any spelling with words, never a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 80 }), async (segment) => {
          for (const path of [apiPaths.allowlistStatus, apiPaths.allowlistProof]) {
            const res = await t.app.inject({ url: fillPath(path, { address: segment }) });
            expect(res.statusCode, res.body).toBeLessThan(500);
            if (res.statusCode >= 400) refusedInWords(res);
          }
        }),
        { numRuns: 100 },
      );
    });

    // The email's link page (GET shows, POST links): any token, in any spelling, in every locale's
    // address, is a page in words (400, 404 or 410), never a 5xx, and links nothing.
    it('the wallet-link page answers any token with a page in words, never a 5xx, and links nothing', async () => {
      const linked = async () =>
        Number(
          (
            await t.store.db
              .selectFrom('allowlist_entries')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('email_linked_at', 'is not', null)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await linked();
      const pages = locales.map((locale) => localePath(locale, pagePaths.walletLink));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...pages), text, fc.boolean(), async (url, token, press) => {
          const res = press
            ? await t.app.inject({
                method: 'POST',
                url,
                headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
                payload: new URLSearchParams({ token }).toString(),
              })
            : await t.app.inject({ url: `${url}?${new URLSearchParams({ token }).toString()}` });
          expect([400, 404, 410], res.body.slice(0, 300)).toContain(res.statusCode);
          expect(res.headers['content-type']).toMatch(/^text\/html/);
          expect(res.body.replace(/<[^>]+>/g, ' ').trim().length).toBeGreaterThan(40);
        }),
        { numRuns: 100 },
      );
      expect(await linked()).toBe(before);
    });

    it('refuses every hostile spelling of a real address, in words, before writing a message to sign', async () => {
      const { address } = testAccount();
      for (const spelled of hostileAddresses(address)) {
        const res = await postJsonAs(t.app, visitor, apiPaths.allowlistChallenge, {
          address: spelled,
          purpose: 'join',
        });
        refusedInWords(res);
        expect(res.statusCode, spelled).toBe(400);
      }
    });

    it('refuses a write from another site, or without the page token, and stores nothing', async () => {
      const before = await counts();
      for (const url of writes) {
        const crossSite = await t.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site', cookie: visitor.cookie },
          payload: '{}',
        });
        refusedInWords(crossSite);
        expect(crossSite.statusCode).toBe(403);
        const noToken = await t.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', cookie: visitor.cookie },
          payload: '{}',
        });
        refusedInWords(noToken);
        expect(noToken.statusCode).toBe(403);
      }
      expect(await counts()).toEqual(before);
    });

    it('a signed join sent twice at once puts the address on the list once, and the other is refused as a replay', async () => {
      const alice = testAccount();
      const challenge = await postJsonAs(t.app, visitor, apiPaths.allowlistChallenge, {
        address: alice.address,
        purpose: 'join',
      });
      const { message } = challenge.json<{ message: string }>();
      const signature = alice.sign(message);
      const answers = await Promise.all(
        [1, 2].map(() => postJsonAs(t.app, visitor, apiPaths.allowlistJoin, { message, signature })),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      for (const refused of answers.filter((a) => a.statusCode === 409)) refusedInWords(refused);
      const rows = await t.store.db
        .selectFrom('allowlist_entries')
        .selectAll()
        .where('address', '=', alice.address)
        .execute();
      expect(rows).toHaveLength(1);
    });
  });
}
