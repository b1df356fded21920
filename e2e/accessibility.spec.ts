// axe-core over every page the public can reach, with JavaScript on (the hydrated page people use).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DESKTOP, MISSING_PATH, PHONE, scrollToBottom, waitForHydration } from './support.ts';

// Still clouds: axe's colour-contrast check then sees the same backdrop every run (and the
// headless, GPU-less browser runs several times faster without the animation).
test.use({ reducedMotion: 'reduce' });

/** Violations as short readable lines, so a failure says what and where. */
async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.flatMap((v) =>
    v.nodes.map((node) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${node.target.join(' ')}`),
  );
}

const pages = [
  { name: 'home, desktop', path: '/', viewport: DESKTOP, status: 200 },
  { name: 'home, 375 px phone', path: '/', viewport: PHONE, status: 200 },
  { name: 'privacy notice', path: '/privacy', viewport: DESKTOP, status: 200 },
  { name: 'presale terms', path: '/terms', viewport: DESKTOP, status: 200 },
  { name: '404 page', path: MISSING_PATH, viewport: DESKTOP, status: 404 },
];

for (const { name, path, viewport, status } of pages) {
  test(`axe finds no violations: ${name}`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const response = await page.goto(path);
    expect(response?.status()).toBe(status);
    // Lazy images in, everything laid out, before axe looks.
    await scrollToBottom(page);
    expect(await axeViolations(page)).toEqual([]);
  });
}

test('axe finds no violations with every FAQ answer open and the wallet button flipped', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/');
  await waitForHydration(page);
  for (const details of await page.locator('.accordion details').all()) {
    if (await details.evaluate((d: HTMLDetailsElement) => d.open)) continue;
    await details.locator('summary').click();
    await expect(details).toHaveJSProperty('open', true);
  }
  const wallet = page.getByRole('button', { name: 'Connect Wallet', exact: true });
  await wallet.click();
  await expect(page.getByRole('banner').getByRole('status')).toHaveText(/coming soon/i);
  expect(await axeViolations(page)).toEqual([]);
});
