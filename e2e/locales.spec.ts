// Every locale's pages as a visitor reads them (issue 19, docs/decisions/0050-a-url-per-locale.md):
// served at their own address, in their own language with no English left, accessible, laid out
// right to left in Arabic, 320 px wide without sideways scroll; a sign-up without JavaScript in
// Spanish answered in Spanish, and its email in Spanish with links to Spanish pages; the offer of
// a language the browser prefers.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { catalog } from '../content/messages/catalog.ts';
import { localeInfo } from '../content/messages/locale-info.ts';
import { locales } from '../src/shared/locales.ts';
import { contentIn } from '../src/shared/content-schema.ts';
import { localePath } from '../src/shared/locale-paths.ts';
import { uniqueEmail, waitForMail } from './outbox.ts';
import { content, DESKTOP, scrollToBottom, waitForHydration, waitForIsland } from './support.ts';

test.use({ reducedMotion: 'reduce' });

const translated = locales.filter((l) => l !== 'en');

/** Every string leaf of an object (the English catalog, the content file's words). */
function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value && typeof value === 'object') return Object.values(value).flatMap(leaves);
  return [];
}

// English a visitor could read on a page: the page's fixed words, the form's and the wallet
// button's, the privacy notice's headings, and the content file's own words. Only sentences and
// phrases (two words or more), less the names every language keeps.
const english = catalog.en;
const englishWords = [
  ...leaves(english.pageChrome),
  ...leaves(english.signup),
  ...leaves(english.wallet),
  ...leaves(english.linkPages),
  ...leaves(english.countdownLabels),
  // The terms: English's page only (the others are each locale's own words).
  ...leaves({
    ...content,
    translations: undefined,
    social: undefined,
    theme: undefined,
    presaleTerms: content.presaleTerms.pages.en,
  }),
]
  .map((s) => s.trim())
  .filter((s) => /\s/.test(s) && !/^Diamond Hand( \(DH\))?$/.test(s) && !/^https?:/.test(s))
  // Each language's own name in the switcher is meant to be there ("English" is one word anyway).
  .filter((s) => !locales.some((l) => localeInfo[l].name === s));

/**
 * The page's visible text in its own language: parts marked as another language (`lang`) are left
 * out, since they are meant to be in it (the switcher's names, the link to the English notice).
 */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const own = document.documentElement.lang;
    const others = [...document.body.querySelectorAll<HTMLElement>('[lang]')].filter((el) => el.lang !== own);
    const shown = others.map((el) => el.style.display);
    for (const el of others) el.style.display = 'none';
    const text = document.body.innerText;
    others.forEach((el, i) => (el.style.display = shown[i] ?? ''));
    return text;
  });
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.flatMap((v) =>
    v.nodes.map((node) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${node.target.join(' ')}`),
  );
}

for (const locale of translated) {
  const { tag, dir } = localeInfo[locale];
  const words = catalog[locale];
  const localContent = contentIn(content, locale);

  test.describe(`${locale}`, () => {
    // A visitor whose browser speaks the page's language (one who prefers another is offered it).
    test.use({ locale: tag });
    for (const [name, path, status] of [
      ['home', '/', 200],
      ['privacy', '/privacy', 200],
      // A draft's terms page shows English's terms, marked as English, and says so in its own words.
      ['terms', '/terms', 200],
      ['not-found', '/no-such-page', 404],
    ] as const) {
      test(`${name}: its own address, its language, no English left, axe clean`, async ({ page }) => {
        await page.setViewportSize(DESKTOP);
        const response = await page.goto(localePath(locale, path));
        expect(response?.status()).toBe(status);
        await expect(page.locator('html')).toHaveAttribute('lang', tag);
        await expect(page.locator('html')).toHaveAttribute('dir', dir);
        await waitForHydration(page);
        await scrollToBottom(page);
        const text = await visibleText(page);
        const left = englishWords.filter((s) => text.includes(s));
        expect(left, `English left on ${localePath(locale, path)}`).toEqual([]);
        if (name === 'home') {
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(localContent.heroTagline);
          await expect(page.getByText(localContent.riskNotice, { exact: true })).toBeVisible();
        }
        if (name === 'privacy') {
          // A draft says so, and points at the notice that binds.
          await expect(page.getByText(words.pageChrome.draftTranslation)).toBeVisible();
          await expect(page.locator('.draft-notice a')).toHaveAttribute('href', '/privacy');
        }
        // The switcher: plain links to this page in every other language; this one is not a link.
        const nav = page.getByRole('navigation', { name: words.pageChrome.languages });
        await expect(nav.locator('[aria-current="page"]')).toHaveText(localeInfo[locale].name);
        for (const other of locales.filter((l) => l !== locale)) {
          await expect(nav.getByRole('link', { name: localeInfo[other].name, exact: true })).toHaveAttribute(
            'href',
            localePath(other, path === '/no-such-page' ? '/' : path),
          );
        }
        expect(await axeViolations(page)).toEqual([]);
      });
    }

    test('320 px wide: nothing scrolls sideways', async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 640 });
      for (const path of ['/', '/privacy']) {
        await page.goto(localePath(locale, path));
        await scrollToBottom(page);
        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect(widths.scroll, `${localePath(locale, path)} at 320 px`).toBeLessThanOrEqual(widths.client);
      }
    });

    test("the islands speak the page's language: the form's own check and the wallet button", async ({ page }) => {
      await page.goto(localePath(locale, '/'));
      await waitForHydration(page);
      const form = page.locator('form.signup-form');
      await form.scrollIntoViewIfNeeded();
      await waitForIsland(page, 'signup');
      await form.getByRole('button', { name: words.signup.submit, exact: true }).click();
      await expect(form.getByRole('status')).toHaveText(words.signup.invalid);
      await expect(form.getByText(words.signup.fieldErrors['name.required'])).toBeVisible();

      const wallet = page.getByRole('button', { name: words.wallet.connect, exact: true });
      await wallet.click();
      await waitForIsland(page, 'wallet');
      await expect(page.getByRole('status').filter({ hasText: words.wallet.soonAnnounced })).toHaveCount(1);
    });
  });
}

test.describe('Arabic, right to left', () => {
  test('mirrors the header, the form and the FAQ markers', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/ar/');
    const box = async (selector: string) => {
      const b = await page.locator(selector).first().boundingBox();
      if (!b) throw new Error(`${selector} has no box`);
      return b;
    };
    // The brand starts the header, at the right; the wallet button ends it, at the left.
    const brand = await box('.site-header .brand');
    const wallet = await box('.site-header .wallet');
    expect(brand.x).toBeGreaterThan(wallet.x);
    // A field's label sits at its field's right edge.
    const label = await box('label[for="signup-name"]');
    const input = await box('#signup-name');
    expect(Math.abs(label.x + label.width - (input.x + input.width))).toBeLessThanOrEqual(2);
    // A question reads from the right; its chevron is at the left.
    const question = await box('.accordion-item summary span:first-child');
    const chevron = await box('.accordion-item .accordion-icon');
    expect(chevron.x).toBeLessThan(question.x);
  });
});

test.describe('without JavaScript, in Spanish', () => {
  test.use({ javaScriptEnabled: false });

  test('a sign-up is answered in Spanish, its email is Spanish, and its links open Spanish pages', async ({ page }) => {
    const es = catalog.es;
    const email = uniqueEmail('es-nojs');
    await page.goto('/es/');
    const form = page.locator('form.signup-form');
    const field = (label: string) => form.getByLabel(label, { exact: true });
    const submit = form.getByRole('button', { name: es.signup.submit, exact: true });
    await field(es.signup.labels.name).fill('Ana García');
    // A browser lets "ana@example" through; the server does not, and says why in Spanish.
    await field(es.signup.labels.email).fill('ana@example');
    await submit.click();
    await page.waitForLoadState();
    await expect(form.getByRole('status')).toHaveText(es.signup.invalid);
    await expect(form.getByText(es.signup.fieldErrors['email.invalid'])).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');

    await field(es.signup.labels.email).fill(email);
    await submit.click();
    await page.waitForLoadState();
    // First valid press of a new visitor: asked for one more (the bot check), in Spanish.
    await expect(form.getByRole('status')).toHaveText(es.signupAnswers.oneMorePress);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await submit.click();
    await page.waitForLoadState();
    await expect(form.getByRole('status')).toHaveText(es.signupAnswers.success);

    const mail = await waitForMail(email);
    expect(mail.subject).toBe(es.confirmationEmail.subject({ site: `${content.name} (${content.ticker})` }));
    expect(mail.text).toContain(es.confirmationEmail.hello);
    expect(mail.text).toContain(contentIn(content, 'es').riskNotice);
    expect(new URL(mail.confirmUrl).pathname).toBe('/es/confirm');
    expect(new URL(mail.unsubscribeUrl).pathname).toBe('/es/unsubscribe');

    await page.goto(mail.confirmUrl);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(es.linkPages.confirmPending.title);
    await page.getByRole('button', { name: es.linkPages.confirmPending.button, exact: true }).click();
    await page.waitForLoadState();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(es.linkPages.confirmed.title);

    await page.goto(mail.unsubscribeUrl);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(es.linkPages.unsubscribePending.title);
  });
});

test.describe('the offer of a preferred language', () => {
  const offerOf = (page: Page) => page.locator('[data-language-offer]');

  test.describe('a browser that prefers Mexican Spanish', () => {
    test.use({ locale: 'es-MX' });

    test('is offered the Spanish page on /, in one tap, and can dismiss it for the session', async ({ page }) => {
      await page.goto('/');
      const link = offerOf(page).getByRole('link', { name: catalog.es.pageChrome.offer, exact: true });
      await expect(link).toBeVisible();
      // The page itself stays English for everyone: nobody is redirected.
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await offerOf(page).getByRole('button', { name: catalog.en.pageChrome.offerDismiss }).click();
      await expect(offerOf(page)).toBeHidden();
      await page.reload();
      await waitForHydration(page);
      await expect(offerOf(page)).toBeHidden();
    });

    test('the tap opens the Spanish page, which offers nothing more', async ({ page }) => {
      await page.goto('/');
      await offerOf(page).getByRole('link', { name: catalog.es.pageChrome.offer, exact: true }).click();
      await expect(page).toHaveURL(/\/es\/$/);
      await waitForHydration(page);
      await expect(offerOf(page)).toBeHidden();
    });
  });

  for (const [locale, who, what] of [
    ['en-GB', 'English', 'is offered nothing'],
    ['zh-TW', 'Traditional Chinese', 'is not offered Simplified Chinese'],
  ] as const) {
    test.describe(`a browser that prefers ${who}`, () => {
      test.use({ locale });

      test(what, async ({ page }) => {
        await page.goto('/');
        await waitForHydration(page);
        await expect(offerOf(page)).toBeHidden();
      });
    });
  }
});
