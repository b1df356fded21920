import { Siwe } from 'ox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import type { AllowlistPurpose } from '../../../shared/allowlist/allowlist-schema.ts';
import type { ApiErrorBody } from '../../../shared/api-error.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { countryListIn } from '../../../shared/countries.ts';
import { locales } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { apiPaths, pagePaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { postJsonAs, visitPage, type Visitor } from '../../test/visitor.ts';
import { testAccount, type TestAccount } from '../../test/test-account.ts';
import { checkSignature } from './signature-check.ts';

// Who may join (docs/decisions/0068-who-may-join.md): the notice on the page, the declaration in
// the signed message, on the shipped content with two restricted countries.
const RESTRICTED = ['US', 'CU'];
const restrictedContent = (version = '2026-12-07') =>
  parseSiteContent({
    ...siteContent,
    wallet: { mode: 'allowlist', chainId: 1 },
    presaleTerms: { ...siteContent.presaleTerms, version, restrictedCountries: RESTRICTED },
  });

describe('the notice where the allowlist is shown', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ content: restrictedContent(), env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  it('names the restricted countries in each language and links its terms page', async () => {
    for (const locale of locales) {
      const html = (await t.app.inject({ url: localePath(locale, pagePaths.home) })).body;
      const countries = countryListIn(localeInfo[locale].tag, RESTRICTED);
      const line = messagesFor(locale).allowlist.walletPageWords.whoMayJoin({
        countries,
        terms: localePath(locale, pagePaths.terms),
      });
      const link = line.find((part) => typeof part === 'object' && 'link' in part);
      if (!link || typeof link !== 'object' || !('link' in link)) throw new Error('the line has no link');
      expect(html, locale).toContain(`<a href="${localePath(locale, pagePaths.terms)}">${link.link}</a>`);
      expect(html, locale).toContain(countries);
    }
    expect((await t.app.inject({ url: '/ar/' })).body).toContain('الولايات المتحدة وكوبا');
  });

  it('is the same bytes for a visitor from a restricted country and from elsewhere, with no cookie', async () => {
    const from = (ip: string) => t.app.inject({ url: '/', headers: { 'x-forwarded-for': ip } });
    const cuban = await from('152.206.0.1');
    const german = await from('5.9.0.1');
    expect(t.app.geo.lookupLocal('152.206.0.1').country).toBe('CU');
    expect(cuban.body).toBe(german.body);
    expect(cuban.headers.etag).toBe(german.headers.etag);
    expect(cuban.headers['set-cookie']).toBeUndefined();
    expect(cuban.headers.vary ?? '').not.toMatch(/forwarded|cf-ipcountry/i);
  });

  it('without restricted countries, says only that joining accepts the terms', async () => {
    const open = await buildTestApp({
      content: parseSiteContent({ ...siteContent, wallet: { mode: 'allowlist', chainId: 1 } }),
    });
    try {
      const html = (await open.app.inject({ url: '/' })).body;
      expect(html).toContain('Joining accepts the <a href="/terms">presale terms</a>');
      expect(html).not.toContain('may not join');
    } finally {
      await open.close();
    }
  });
});

describe.each(dialectCases)('the declaration in the signed message ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let visitor: Visitor;
  let alice: TestAccount;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    // The client's address from X-Forwarded-For, as behind the deployment's proxy.
    t = await buildTestApp({
      store,
      content: restrictedContent(),
      env: { ALLOWLIST_RATE_LIMIT: '1000', TRUST_PROXY: 'true' },
    });
  });
  afterAll(async () => {
    if (skip) return;
    await t.close();
    await store.destroy();
  });
  beforeEach(async () => {
    if (skip) return;
    alice = testAccount();
    visitor = await visitPage(t.app);
    t.clock.advance(5_000);
  });

  /** Asks for a message to sign, from a client in Germany unless `headers` say otherwise. */
  const ask = (address: string, purpose: AllowlistPurpose, headers: Record<string, string> = {}, app = t.app) =>
    postJsonAs(app, visitor, apiPaths.allowlistChallenge, { address, purpose }, headers);
  const challenge = async (address: string, purpose: AllowlistPurpose = 'join', language = 'en') => {
    const res = await ask(address, purpose, { 'accept-language': language });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ message: string }>().message;
  };
  const send = (purpose: AllowlistPurpose, message: string, signature: string, ip = '5.9.0.1') =>
    postJsonAs(
      t.app,
      visitor,
      purpose === 'join' ? apiPaths.allowlistJoin : apiPaths.allowlistLeave,
      { message, signature },
      { 'x-forwarded-for': ip },
    );

  it.skipIf(skip)(
    'states the terms version and the countries, names the terms page in the visitor’s language, and still reads as EIP-4361',
    async () => {
      const message = await challenge(alice.address, 'join', 'ar');
      const statement = message.split('\n')[3];
      expect(statement).toBe(
        'Join the Diamond Hand presale allowlist. I accept the presale terms, version 2026-12-07, and I am not a resident of United States (US) or Cuba (CU). This costs nothing, sends no transaction and grants no permission to move your funds.',
      );
      // EIP-4361's grammar: a statement is printable ASCII.
      expect(statement).toMatch(/^[\x20-\x7e]+$/);
      expect(message.split('\n').slice(-2)).toEqual(['Resources:', '- https://dh.example/ar/terms']);
      const parsed = Siwe.parseMessage(message);
      expect(parsed.statement).toBe(statement);
      expect(parsed.resources).toEqual(['https://dh.example/ar/terms']);
      expect(
        await checkSignature({
          text: message,
          signature: alice.sign(message),
          address: alice.address,
          contractCheck: null,
        }),
      ).toBe('valid');
      const joined = await send('join', message, alice.sign(message));
      expect(joined.statusCode, joined.body).toBe(200);
      // Leaving declares nothing and names no page.
      const leave = await challenge(alice.address, 'leave');
      expect(leave.split('\n')[3]).toBe(walletRefusals.statement.leave);
      expect(leave).not.toContain('Resources:');
    },
  );

  it.skipIf(skip)('refuses a message whose declaration is not the current one, altered or outdated', async () => {
    const message = await challenge(alice.address);
    const refusedWrongStatement = async (text: string) => {
      const res = await send('join', text, alice.sign(text));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<ApiErrorBody>().error.message).toBe(walletRefusals.wrongStatement);
    };
    // A country dropped, an older version, another page as the terms: each a statement we did not write.
    await refusedWrongStatement(message.replace(' or Cuba (CU)', ''));
    await refusedWrongStatement(message.replace('version 2026-12-07', 'version 2026-11-01'));
    await refusedWrongStatement(message.replace('https://dh.example/terms', 'https://evil.example/terms'));
    // A message written before the terms changed is refused once they have: another build, same store.
    const before = await challenge(alice.address);
    const changed = await buildTestApp({
      store,
      clock: t.clock,
      content: restrictedContent('2027-01-01'),
      env: { TRUST_PROXY: 'true' },
    });
    try {
      const res = await postJsonAs(changed.app, visitor, apiPaths.allowlistJoin, {
        message: before,
        signature: alice.sign(before),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<ApiErrorBody>().error.message).toBe(walletRefusals.wrongStatement);
    } finally {
      await changed.close();
    }
    // The message as written still joins.
    expect((await send('join', message, alice.sign(message))).statusCode).toBe(200);
  });

  const CUBA = '152.206.0.1';
  const refusals = () => store.db.selectFrom('allowlist_country_refusals').selectAll().orderBy('country').execute();
  const refusedCount = async () => (await refusals()).find((r) => r.country === 'CU')?.refused ?? 0;

  it.skipIf(skip)(
    'refuses a join from a restricted country in each locale’s words, keeps no trace of the address, and counts it',
    async () => {
      const before = await refusedCount();
      for (const locale of locales) {
        const tag = localeInfo[locale].tag;
        const res = await ask(alice.address, 'join', { 'accept-language': tag, 'x-forwarded-for': CUBA });
        expect(res.statusCode, res.body).toBe(403);
        const cuba = new Intl.DisplayNames(tag, { type: 'region' }).of('CU') ?? 'CU';
        expect(res.json<ApiErrorBody>().error).toEqual({
          code: 'forbidden',
          message: messagesFor(locale).allowlist.walletRefusals.restrictedCountry({ country: cuba }),
        });
      }
      expect(walletRefusals.restrictedCountry({ country: 'Cuba' })).toContain('If you are not in Cuba');
      // A message asked for elsewhere and sent from there is refused too.
      const message = await challenge(alice.address);
      const sent = await send('join', message, alice.sign(message), CUBA);
      expect(sent.statusCode, sent.body).toBe(403);
      expect(await refusedCount()).toBe(before + locales.length + 1);
      // No entry; no message was written for the address from there; the count holds no one.
      const entries = await store.db.selectFrom('allowlist_entries').select('address').execute();
      expect(entries.map((e) => e.address)).not.toContain(alice.address);
      const nonces = await store.db
        .selectFrom('allowlist_nonces')
        .select('nonce')
        .where('address', '=', alice.address)
        .execute();
      expect(nonces).toHaveLength(1); // the one asked for from Germany, unused
      expect(Object.keys((await refusals())[0] ?? {}).sort()).toEqual(['country', 'refused']);
    },
  );

  it.skipIf(skip)('counts refusals arriving together exactly, in one step each', async () => {
    const before = await refusedCount();
    const many = await Promise.all(
      Array.from({ length: 25 }, () => ask(testAccount().address, 'join', { 'x-forwarded-for': CUBA })),
    );
    expect(many.map((r) => r.statusCode)).toEqual(Array.from({ length: 25 }, () => 403));
    expect(await refusedCount()).toBe(before + 25);
  });

  it.skipIf(skip)('stores the terms version a join accepted; a join again under newer terms updates it', async () => {
    const version = async () =>
      await store.db
        .selectFrom('allowlist_entries')
        .select(['terms_version', 'joined_at'])
        .where('address', '=', alice.address)
        .executeTakeFirst();
    const message = await challenge(alice.address);
    expect((await send('join', message, alice.sign(message))).statusCode).toBe(200);
    const first = await version();
    expect(first?.terms_version).toBe('2026-12-07');
    const newer = await buildTestApp({
      store,
      clock: t.clock,
      content: restrictedContent('2027-01-01'),
      env: { TRUST_PROXY: 'true' },
    });
    try {
      const asked = await ask(alice.address, 'join', {}, newer.app);
      const again = asked.json<{ message: string }>().message;
      const res = await postJsonAs(newer.app, visitor, apiPaths.allowlistJoin, {
        message: again,
        signature: alice.sign(again),
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await newer.close();
    }
    expect(await version()).toEqual({ terms_version: '2027-01-01', joined_at: first?.joined_at });
  });

  it.skipIf(skip)('leaving works from anywhere, a restricted country too', async () => {
    const message = await challenge(alice.address);
    expect((await send('join', message, alice.sign(message))).statusCode).toBe(200);
    const asked = await ask(alice.address, 'leave', { 'x-forwarded-for': CUBA });
    expect(asked.statusCode, asked.body).toBe(200);
    const bye = asked.json<{ message: string }>().message;
    const left = await send('leave', bye, alice.sign(bye), CUBA);
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json()).toEqual({ address: alice.address, since: null });
  });
});
