// With JavaScript off the server's HTML alone must carry the whole page, in order, with its exact
// words (PRODUCT.md, "The page").
import { expect, test, type Locator, type Page } from '@playwright/test';
import { pageChromeMessages } from '../content/messages/en/page-chrome.ts';
import { content, MISSING_PATH } from './support.ts';

// Still clouds: what is checked here does not move, and a static page keeps the run fast and
// every box where it is measured (see layout-and-motion.spec.ts for the motion itself).
test.use({ javaScriptEnabled: false, reducedMotion: 'reduce' });

const fullName = `${content.name} (${content.ticker})`;
const bannerTitle = `${content.banner.headline} ${content.banner.year}`;
// The server stamps the footer with the current UTC year.
const year = new Date().getUTCFullYear();

async function expectSocialLinks(scope: Locator): Promise<void> {
  for (const link of [content.social.twitter, content.social.telegram]) {
    const anchor = scope.getByRole('link', { name: `${link.label} (opens in a new tab)`, exact: true });
    await expect(anchor).toBeVisible();
    await expect(anchor).toHaveAttribute('href', link.url);
    await expect(anchor).toHaveAttribute('target', '_blank');
    await expect(anchor).toHaveAttribute('rel', /noopener/);
  }
}

/** Header and footer: the frame every page (home, privacy, 404) shares. */
async function expectSiteFrame(page: Page): Promise<void> {
  const header = page.getByRole('banner');
  const home = header.getByRole('link', { name: fullName, exact: true });
  await expect(home).toHaveAttribute('href', '/');
  // The logo is our SVG written into the page (no request), drawn at its 48 px.
  const logo = home.locator('.brand-logo svg');
  await expect(logo).toBeVisible();
  expect(await logo.boundingBox()).toMatchObject({ width: 48, height: 48 });
  await expect(header.getByRole('button', { name: 'Connect Wallet', exact: true })).toBeVisible();

  const footer = page.getByRole('contentinfo');
  await expect(footer.getByText(`© ${year} ${fullName}`, { exact: true })).toBeVisible();
  await expect(footer.getByText(content.riskNotice, { exact: true })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Privacy notice', exact: true })).toHaveAttribute('href', '/privacy');
  await expectSocialLinks(footer);

  // The site's own look, not a bare browser page: the inline stylesheet applied.
  await expect(page.locator('.clouds')).toHaveCSS('background-image', /linear-gradient/);
}

test('home page reads complete, in order, with its exact copy', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(fullName);

  const header = page.getByRole('banner');
  const hero = page.getByRole('heading', { level: 1, name: content.heroTagline, exact: true });
  const banner = page.getByRole('region', { name: bannerTitle, exact: true });
  const faq = page.getByRole('region', { name: 'FAQS', exact: true });
  const stayUpdated = page.getByRole('region', { name: content.stayUpdated.heading, exact: true });
  const closing = page.getByRole('region', { name: content.closingLine, exact: true });
  const footer = page.getByRole('contentinfo');

  await expectSiteFrame(page);

  // Hero
  await expect(hero).toBeVisible();
  await expect(hero).toHaveText(content.heroTagline);

  // Presale banner
  await expect(banner.getByRole('heading', { level: 2 })).toHaveText(bannerTitle);
  // "Coming Soon" while the content file has no presale date.
  await expect(banner.getByText(pageChromeMessages.comingSoon, { exact: true })).toBeVisible();
  await expectSocialLinks(banner);

  // FAQS: every question, and every answer readable although JS never ran: the first is open,
  // and the others open natively (<details>), no script needed.
  await expect(faq.getByRole('heading', { level: 2 })).toHaveText('FAQS');
  await expect(faq.locator('summary')).toHaveText(content.faq.map((item) => item.question));
  expect(content.faq).toHaveLength(5);
  await expect(faq.locator('details:not([open])')).toHaveCount(content.faq.length - 1);
  for (const [i, item] of content.faq.entries()) {
    const answer = faq.getByRole('region', { name: item.question, exact: true });
    if (i > 0) await faq.locator('summary').nth(i).click();
    await expect(answer).toBeVisible();
    await expect(answer).toHaveText(item.answer);
  }

  // Stay Updated: a plain form that posts without JavaScript.
  await expect(stayUpdated.getByText(content.stayUpdated.intro, { exact: true })).toBeVisible();
  const form = stayUpdated.locator('form');
  await expect(form).toHaveAttribute('method', 'post');
  const name = form.locator('input[name="name"]');
  const email = form.locator('input[name="email"]');
  const comment = form.locator('textarea[name="comment"]');
  await expect(name).toBeVisible();
  await expect(email).toBeVisible();
  await expect(email).toHaveAttribute('type', 'email');
  await expect(comment).toBeVisible();
  await expect(comment).toHaveAttribute('rows', '5');
  // Each field has its visible label.
  await expect(form.getByLabel('Name', { exact: true })).toHaveAttribute('name', 'name');
  await expect(form.getByLabel('Email', { exact: true })).toHaveAttribute('name', 'email');
  await expect(form.getByLabel(/^Comment/)).toHaveAttribute('name', 'comment');
  const submit = form.getByRole('button', { name: 'Submit', exact: true });
  await expect(submit).toBeVisible();
  await expect(submit).toHaveAttribute('type', 'submit');

  // Closing block
  await expect(closing.getByRole('heading', { level: 2 })).toHaveText(content.closingLine);
  await expectSocialLinks(closing);

  // Top to bottom in this order.
  const order = [header, hero, banner, faq, stayUpdated, closing, footer];
  const tops: number[] = [];
  for (const section of order) {
    const box = await section.boundingBox();
    expect(box, 'each section is laid out').not.toBeNull();
    tops.push(box?.y ?? Number.NaN);
  }
  expect(tops).toEqual([...tops].sort((a, b) => a - b));
  expect(new Set(tops).size).toBe(tops.length);
});

test('privacy notice renders in the site look', async ({ page }) => {
  const response = await page.goto('/privacy');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(`Privacy notice · ${fullName}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy notice');
  await expect(page.getByRole('main').getByRole('link', { name: 'Back to the home page' })).toHaveAttribute(
    'href',
    '/',
  );
  await expectSiteFrame(page);
});

test('an unknown address gets a 404 page in the site look, with a way home', async ({ page }) => {
  const response = await page.goto(MISSING_PATH);
  expect(response?.status()).toBe(404);
  expect(response?.headers()['content-type']).toMatch(/^text\/html/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expectSiteFrame(page);

  await page.getByRole('main').getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(content.heroTagline);
});
