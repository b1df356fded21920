// The page's islands (docs/decisions/0010-page-islands.md): no React before a visitor does
// something; each island's code arrives when it is needed, takes over without moving anything;
// what a person does before it arrives still works.
import { expect, test, type Page } from '@playwright/test';
import { signupAnswers } from '../content/messages/en/signup.ts';
import { uniqueEmail, waitForMail } from './outbox.ts';
import {
  chunkPath,
  holdChunk,
  openBeforeLoader,
  PHONE,
  waitForHydration,
  waitForIsland,
  watchConsole,
  watchScripts,
} from './support.ts';

const loader = chunkPath('entry-client');
const beacon = chunkPath('beacon');

/**
 * Layout shifts the page has recorded since it started loading (none after an input count), with
 * what moved: a failure names the element and its rectangles before and after, since a shift that
 * depends on timing may not come back when someone looks for it.
 */
function layoutShift(page: Page): Promise<{ total: number; moved: string[] }> {
  return page.evaluate(
    () =>
      new Promise<{ total: number; moved: string[] }>((resolve) => {
        interface Shift extends PerformanceEntry {
          value: number;
          hadRecentInput: boolean;
          sources?: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
        }
        const rect = (r: DOMRectReadOnly) => `${r.x},${r.y} ${r.width}x${r.height}`;
        new PerformanceObserver((list) => {
          const entries = (list.getEntries() as Shift[]).filter((e) => !e.hadRecentInput);
          resolve({
            total: entries.reduce((total, e) => total + e.value, 0),
            moved: entries.flatMap((e) =>
              (e.sources ?? []).map((source) => {
                const node = source.node;
                const what = node instanceof Element ? node.outerHTML.slice(0, 120) : (node?.nodeName ?? '(gone)');
                return `${e.value} at ${Math.round(e.startTime)} ms: ${what} from ${rect(source.previousRect)} to ${rect(source.currentRect)}`;
              }),
            ),
          });
        }).observe({ type: 'layout-shift', buffered: true });
        // The observer reports buffered entries at once when there are any; none means zero.
        requestAnimationFrame(() => requestAnimationFrame(() => resolve({ total: 0, moved: [] })));
      }),
  );
}

test.describe('before the visitor does anything', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('only the loader and the beacon run: no React, no form code; the form cookies are already set', async ({
    page,
    context,
    baseURL,
  }) => {
    const scripts = watchScripts(page);
    const csrf = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/csrf');
    await page.goto('/');
    await waitForHydration(page);
    // The loader asks for the form's cookies at idle time, without the form's code.
    expect((await csrf).status()).toBe(204);
    await page.waitForLoadState('networkidle');
    expect(
      scripts.every((s) => loader.test(s) || beacon.test(s)),
      scripts.join(', '),
    ).toBe(true);
    expect(scripts.filter((s) => loader.test(s))).toHaveLength(1);
    const names = (await context.cookies(new URL(baseURL ?? '').origin)).map((c) => c.name).sort();
    expect(names).toEqual(['XSRF-TOKEN', '_csrf', 'dh_t']);
    // No island woke by itself: the shipped content has no countdown, and nobody touched anything.
    await expect(page.locator('[data-island-state]')).toHaveCount(0);
  });

  test('the loader and the beacon are requested only once the first contentful paint is on screen', async ({
    page,
  }) => {
    await page.goto('/');
    await waitForHydration(page);
    const read = () =>
      page.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        scripts: performance
          .getEntriesByType('resource')
          .filter((r) => /\/assets\/(entry-client|beacon)-[\w-]+\.js$/.test(r.name))
          .map((r) => r.startTime),
      }));
    // A resource's entry is recorded when its response has ended: the beacon's module may still be
    // arriving when the loader has hydrated the page (seen in CI), so wait for both entries.
    await expect.poll(async () => (await read()).scripts.length).toBe(2);
    const times = await read();
    expect(times.fcp).not.toBeNull();
    expect(times.scripts).toHaveLength(2);
    for (const start of times.scripts) expect(start).toBeGreaterThanOrEqual(times.fcp ?? Infinity);
  });

  test('a browser without paint timing still starts the loader, a frame after parsing', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(PerformanceObserver, 'supportedEntryTypes', { value: ['resource'] });
    });
    const scripts = watchScripts(page);
    await page.goto('/');
    await waitForHydration(page);
    expect(scripts.filter((s) => loader.test(s) || beacon.test(s))).toHaveLength(2);
  });
});

test.describe('waking', () => {
  test('the wallet wakes on hover, the form when it comes near; React arrives with the first of them', async ({
    page,
  }) => {
    const scripts = watchScripts(page);
    await page.goto('/');
    await waitForHydration(page);
    await page.waitForLoadState('networkidle');
    expect(scripts.some((s) => chunkPath('hydrate').test(s))).toBe(false);

    await page.getByRole('button', { name: 'Connect Wallet', exact: true }).hover();
    await waitForIsland(page, 'wallet');
    expect(scripts.some((s) => chunkPath('wallet-island').test(s))).toBe(true);
    expect(scripts.some((s) => chunkPath('hydrate').test(s))).toBe(true);
    // The form is still far below: its code (zod/mini, the HTTP helper) has not been asked for.
    expect(scripts.some((s) => chunkPath('signup-island').test(s))).toBe(false);

    await page.locator('form.signup-form').scrollIntoViewIfNeeded();
    await waitForIsland(page, 'signup');
    expect(scripts.some((s) => chunkPath('signup-island').test(s))).toBe(true);
  });

  test('nothing moves when the islands wake, and the console stays clean', async ({ page }) => {
    const log = watchConsole(page);
    await page.goto('/');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Connect Wallet', exact: true }).hover();
    await waitForIsland(page, 'wallet');
    await page.locator('form.signup-form').scrollIntoViewIfNeeded();
    await waitForIsland(page, 'signup');
    const shift = await layoutShift(page);
    expect(shift.total, shift.moved.join('\n')).toBe(0);
    expect(log.problems).toEqual([]);
  });

  test('what a person typed before the form woke is kept', async ({ page }) => {
    const release = await holdChunk(page, 'signup-island');
    await page.goto('/');
    await waitForHydration(page);
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('Early Bird');
    await expect(page.locator('[data-island="signup"]')).toHaveAttribute('data-island-state', 'loading');
    release();
    await waitForIsland(page, 'signup');
    await expect(name).toHaveValue('Early Bird');
    await expect(name).toBeFocused();
  });
});

test.describe('before an island has woken', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('taps on the wallet button while its code is on the way still flip it, once', async ({ page }) => {
    const release = await holdChunk(page, 'wallet-island');
    await page.goto('/');
    await waitForHydration(page);
    const button = page.getByRole('button', { name: 'Connect Wallet', exact: true });
    // Tapped twice, once on its words and once on the button: one control, meant once.
    await button.getByText('Connect Wallet').tap();
    await button.tap();
    await expect(page.locator('[data-island="wallet"]')).toHaveAttribute('data-island-state', 'loading');
    await expect(button).toHaveAttribute('data-flipped', 'false');
    release();
    await waitForIsland(page, 'wallet');
    // Replayed once: flipped (not flipped and back), and said in the live region.
    await expect(button).toHaveAttribute('data-flipped', 'true');
    await expect(page.getByRole('banner').getByRole('status')).toHaveText(/coming soon/i);
  });

  test('taps on the wallet button before even the loader has arrived still flip it, once', async ({ page }) => {
    const release = await openBeforeLoader(page, '/');
    const button = page.getByRole('button', { name: 'Connect Wallet', exact: true });
    // Tapped twice, as a person does when nothing seems to happen: meant once.
    await button.tap();
    await button.tap();
    await expect(page.locator('html')).not.toHaveAttribute('data-hydrated', 'true');
    await expect(button).toHaveAttribute('data-flipped', 'false');
    release();
    await waitForIsland(page, 'wallet');
    await expect(button).toHaveAttribute('data-flipped', 'true');
    await expect(page.getByRole('banner').getByRole('status')).toHaveText(/coming soon/i);
    // Handed over once: a later tap is the island's own, and flips it back.
    await button.tap();
    await expect(button).toHaveAttribute('data-flipped', 'false');
  });

  test('a submit before the form has woken is a plain post, and signs up', async ({ page }) => {
    // The form's chunk never arrives; the cookies came at idle time, so one press is enough.
    await page.route('**/assets/signup-island-*.js', (route) => route.abort());
    const csrf = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/csrf');
    await page.goto('/');
    await csrf;
    const email = uniqueEmail('early');
    await page.getByLabel('Name', { exact: true }).fill('Quick Person');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await expect(page.locator('[data-island="signup"]')).toHaveAttribute('data-island-state', 'failed');
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/signup');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const response = await answer;
    expect(response.status()).toBe(200);
    expect(response.request().headers()['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    await page.waitForLoadState();
    await expect(page.locator('form.signup-form').getByRole('status')).toHaveText(signupAnswers.success);
    // The email carries nothing the sender typed (decision 0011), so its arrival is the proof.
    expect((await waitForMail(email)).to).toEqual([email]);
  });

  test('without the cookies either, the plain post asks for one more press, then signs up', async ({ page }) => {
    await page.route('**/assets/signup-island-*.js', (route) => route.abort());
    await page.route('**/api/csrf', (route) => route.abort());
    await page.goto('/');
    await waitForHydration(page);
    const email = uniqueEmail('early-nocookie');
    await page.getByLabel('Name', { exact: true }).fill('Quicker Person');
    await page.getByLabel('Email', { exact: true }).fill(email);
    const first = page.waitForResponse((r) => new URL(r.url()).pathname === '/signup');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    expect((await first).status()).toBe(428);
    await page.waitForLoadState();
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
    const second = page.waitForResponse((r) => new URL(r.url()).pathname === '/signup');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    expect((await second).status()).toBe(200);
    await page.waitForLoadState();
    await expect(page.locator('form.signup-form').getByRole('status')).toHaveText(signupAnswers.success);
    expect((await waitForMail(email)).to).toEqual([email]);
  });
});
