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
    t = await buildTestApp({ content: restrictedContent() });
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
    t = await buildTestApp({ store, content: restrictedContent(), env: { ALLOWLIST_RATE_LIMIT: '1000' } });
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

  const challenge = async (address: string, purpose: AllowlistPurpose = 'join', language = 'en') => {
    const res = await postJsonAs(
      t.app,
      visitor,
      apiPaths.allowlistChallenge,
      { address, purpose },
      { 'accept-language': language },
    );
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
    const changed = await buildTestApp({ store, clock: t.clock, content: restrictedContent('2027-01-01') });
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
});
