// Who may join (docs/decisions/0068-who-may-join.md), in a browser with an injected wallet, in
// English and in Arabic (right to left): the line naming the restricted countries and linking the
// terms, the terms page, the statement the wallet is asked to sign, and a join from a restricted
// country (the browser's address set by X-Forwarded-For, looked up in the real local database)
// refused in words.
import { expect, test, type Page } from '@playwright/test';
import { Hex } from 'ox';
import * as arabic from '../content/messages/ar/allowlist.ts';
import * as english from '../content/messages/en/allowlist.ts';
import { pageChromeMessages as arabicChrome } from '../content/messages/ar/page-chrome.ts';
import { pageChromeMessages as englishChrome } from '../content/messages/en/page-chrome.ts';
import { terms as englishTerms } from '../content/messages/en/terms.ts';
import { allowlistServerPerTest } from './allowlist-server.ts';
import { injectWallets } from './injected-wallet.ts';
import { waitForHydration, watchConsole } from './support.ts';

/** An address the shipped GeoLite2 database places in Cuba. */
const CUBA = '152.206.0.1';
const LOCALES = [
  { name: 'English', home: '/', terms: '/terms', tag: 'en', dir: 'ltr', words: english, chrome: englishChrome },
  { name: 'Arabic', home: '/ar/', terms: '/ar/terms', tag: 'ar', dir: 'rtl', words: arabic, chrome: arabicChrome },
] as const;

const startServer = allowlistServerPerTest();

const countriesIn = (tag: string, type: 'conjunction' | 'disjunction' = 'conjunction') =>
  new Intl.ListFormat(tag, { type }).format(
    ['US', 'CU'].map((c) => new Intl.DisplayNames(tag, { type: 'region' }).of(c) ?? c),
  );

for (const locale of LOCALES) {
  const { walletMessages, walletPageWords, walletRefusals } = locale.words;
  const block = (page: Page) => page.getByRole('region', { name: walletPageWords.heading });
  const status = (page: Page) => block(page).getByRole('status');

  test(`${locale.name}: the notice names the countries and links the terms; the wallet is asked to sign the declaration`, async ({
    page,
  }) => {
    // A server of its own, three page loads and one signature: about 10 s on a quiet machine.
    test.setTimeout(60_000);
    const log = watchConsole(page);
    const server = await startServer('allowlist', 1, ['US', 'CU']);
    const wallets = await injectWallets(page, [{ uuid: 'dd44dd-delta', name: 'Delta Wallet', chainId: '0x1' }]);
    await page.goto(`${server.origin}${locale.home}`);
    await waitForHydration(page);
    await expect(page.locator('html')).toHaveAttribute('dir', locale.dir);

    const notice = block(page).locator('.allowlist-terms');
    await expect(notice).toContainText(countriesIn(locale.tag));
    await notice.getByRole('link').click();
    await expect(page).toHaveURL(`${server.origin}${locale.terms}`);
    await expect(page.locator('html')).toHaveAttribute('dir', locale.dir);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(englishTerms.title);
    await expect(page.getByText(locale.chrome.terms.excluded({ countries: countriesIn(locale.tag) }))).toBeVisible();
    // Arabic's translation is a draft: the page shows English's terms, and says so.
    if (locale.tag === 'ar') await expect(page.getByText(arabicChrome.terms.draft)).toBeVisible();

    await page.goto(`${server.origin}${locale.home}`);
    await waitForHydration(page);
    await block(page).getByRole('button', { name: walletPageWords.connect }).click();
    await block(page).getByRole('button', { name: walletMessages.join }).click();
    await expect(status(page)).toContainText(wallets.account.address.slice(0, 5));
    const signed = (await wallets.calls()).find((c) => c.method === 'personal_sign');
    const text = Hex.toString((signed?.params as [Hex.Hex])[0]);
    expect(text).toContain(
      'I accept the presale terms, version 2026-12-07, and I am not a resident of United States (US) or Cuba (CU).',
    );
    expect(text).toContain(`Resources:\n- ${server.origin}${locale.terms}`);
    const entry = await server.store.db.selectFrom('allowlist_entries').selectAll().executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ address: wallets.account.address, terms_version: '2026-12-07' });
    expect(log.errors).toEqual([]);
  });

  test(`${locale.name}: a join from a restricted country is refused in words, before anything is signed`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const server = await startServer('allowlist', 1, ['US', 'CU']);
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': CUBA });
    const wallets = await injectWallets(page, [{ uuid: 'ee55ee-epsilon', name: 'Epsilon Wallet', chainId: '0x1' }]);
    await page.goto(`${server.origin}${locale.home}`);
    await waitForHydration(page);
    await block(page).getByRole('button', { name: walletPageWords.connect }).click();
    await block(page).getByRole('button', { name: walletMessages.join }).click();
    const cuba = new Intl.DisplayNames(locale.tag, { type: 'region' }).of('CU') ?? 'CU';
    await expect(status(page)).toHaveText(walletRefusals.restrictedCountry({ country: cuba }));
    expect((await wallets.calls()).map((c) => c.method)).not.toContain('personal_sign');
    expect(await server.store.db.selectFrom('allowlist_entries').selectAll().execute()).toEqual([]);
    expect(await server.store.db.selectFrom('allowlist_country_refusals').selectAll().execute()).toEqual([
      { country: 'CU', refused: 1 },
    ]);
  });
}
