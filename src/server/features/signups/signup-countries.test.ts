import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import type { ApiErrorBody } from '../../../shared/api-error.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { locales } from '../../../shared/locales.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { postSignupForm, postSignupJson, visitPage, type Visitor } from '../../test/visitor.ts';

// The email list and the restricted countries (docs/decisions/0068-who-may-join.md): open to every
// country unless the content file's presaleTerms.emailList says 'restricted'.
const CUBA = '152.206.0.1';
const withEmailList = (emailList: 'open' | 'restricted') =>
  parseSiteContent({
    ...siteContent,
    presaleTerms: { ...siteContent.presaleTerms, restrictedCountries: ['US', 'CU'], emailList },
  });

describe.each(dialectCases)('the email list from a restricted country ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let open: TestApp;
  let restricted: TestApp;
  let visitor: Visitor;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    const env = { TRUST_PROXY: 'true' };
    open = await buildTestApp({ store, env, content: withEmailList('open') });
    restricted = await buildTestApp({ store, env, clock: open.clock, content: withEmailList('restricted') });
  });
  afterAll(async () => {
    if (skip) return;
    await open.close();
    await restricted.close();
    await store.destroy();
  });
  beforeEach(async () => {
    if (skip) return;
    visitor = await visitPage(open.app);
    open.clock.advance(5_000);
  });

  const subscribed = async (email: string) =>
    (await store.db.selectFrom('subscribers').select('id').where('email', '=', email).execute()).length;

  it.skipIf(skip)('is open by default: a sign-up from a restricted country is taken', async () => {
    expect(parseSiteContent(siteContent).presaleTerms.emailList).toBe('open');
    const res = await postSignupJson(
      open.app,
      visitor,
      { name: 'Ana', email: 'ana@example.com' },
      { 'x-forwarded-for': CUBA },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await subscribed('ana@example.com')).toBe(1);
  });

  it.skipIf(skip)(
    'restricted: refused in each locale’s words, JSON or plain form, with nothing stored; elsewhere taken',
    async () => {
      for (const locale of locales) {
        const tag = localeInfo[locale].tag;
        const res = await postSignupJson(
          restricted.app,
          visitor,
          { name: 'Luis', email: `luis-${locale}@example.com`, locale },
          { 'x-forwarded-for': CUBA },
        );
        expect(res.statusCode, res.body).toBe(403);
        const cuba = new Intl.DisplayNames(tag, { type: 'region' }).of('CU') ?? 'CU';
        expect(res.json<ApiErrorBody>().error).toEqual({
          code: 'forbidden',
          message: messagesFor(locale).signupAnswers.restrictedCountry({ country: cuba }),
        });
        expect(await subscribed(`luis-${locale}@example.com`)).toBe(0);
      }
      const form = await postSignupForm(
        restricted.app,
        visitor,
        { name: 'Luis', email: 'luis@example.com' },
        { 'x-forwarded-for': CUBA },
      );
      expect(form.statusCode).toBe(403);
      expect(form.body).toContain('If you are not in Cuba');
      expect(await subscribed('luis@example.com')).toBe(0);
      const german = await postSignupJson(
        restricted.app,
        visitor,
        { name: 'Jonas', email: 'jonas@example.com' },
        { 'x-forwarded-for': '5.9.0.1' },
      );
      expect(german.statusCode, german.body).toBe(200);
      expect(await subscribed('jonas@example.com')).toBe(1);
    },
  );
});
