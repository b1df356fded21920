// The page loads nothing from anyone else, runs clean (no errors, no hydration mismatch), and is
// served with the security headers its Content Security Policy depends on.
import { expect, test } from '@playwright/test';
import { MISSING_PATH, scrollToBottom, waitForHydration, waitForIsland, watchConsole, watchCsp } from './support.ts';

const pages = [
  { path: '/', status: 200 },
  { path: '/privacy', status: 200 },
  { path: MISSING_PATH, status: 404 },
];

const hydrationProblem = /hydrat|mismatch|react\.dev\/errors\/4(18|19|21|22|23|25)\b/i;

for (const { path, status } of pages) {
  test(`${path}: every request stays on our origin; no console errors or hydration warnings`, async ({
    page,
    baseURL,
  }) => {
    const origin = new URL(baseURL ?? '').origin;
    const requests: string[] = [];
    const failed: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText ?? ''}`));
    page.on('response', (response) => {
      const isDocument = response.request().resourceType() === 'document';
      if (!isDocument && response.status() >= 400) failed.push(`${response.url()}: HTTP ${response.status()}`);
    });
    const log = watchConsole(page);

    const response = await page.goto(path);
    expect(response?.status()).toBe(status);
    await waitForHydration(page);
    // Wake every island the page has, so a hydration mismatch in any of them would show.
    await page.getByRole('button', { name: 'Connect Wallet', exact: true }).hover();
    await waitForIsland(page, 'wallet');
    await scrollToBottom(page);
    if (path === '/') await waitForIsland(page, 'signup');
    await page.waitForLoadState('networkidle');

    // The document, its script, and its images at least.
    expect(requests.length).toBeGreaterThanOrEqual(3);
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(failed).toEqual([]);

    // Development builds word it ("hydration ... mismatch"); production builds report minified
    // React error #418 (text or markup differs), which the zero-errors check below also catches.
    expect(log.problems.filter((line) => hydrationProblem.test(line))).toEqual([]);
    // The one error allowed: Chromium logs the not-found document's own 404 status.
    const documentUrl = new URL(path, origin).href;
    const expected = (line: string) =>
      status === 404 && line.includes('status of 404') && line.endsWith(`@ ${documentUrl}`);
    expect(log.errors.filter((line) => !expected(line))).toEqual([]);
  });
}

test.describe('security headers', () => {
  for (const { path, status } of pages) {
    test(`${path}: the document carries them`, async ({ page }) => {
      const response = await page.goto(path);
      if (!response) throw new Error('no response for the document');
      expect(response.status()).toBe(status);

      const csp = (await response.headerValue('content-security-policy')) ?? '';
      const directives = new Map(
        csp
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .filter((parts) => parts[0])
          .map(([name = '', ...values]) => [name.toLowerCase(), values]),
      );
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(directives.get('base-uri')).toEqual(["'none'"]);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(directives.get('default-src')).toEqual(["'self'"]);
      // Scripts only from our own origin, plus the one inline loader by its hash: no other inline
      // code, no eval.
      const scriptSrc = directives.get('script-src') ?? [];
      expect(scriptSrc[0]).toBe("'self'");
      expect(scriptSrc.slice(1)).toHaveLength(1);
      expect(scriptSrc[1]).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);

      expect(await response.headerValue('x-content-type-options')).toBe('nosniff');
      expect(await response.headerValue('referrer-policy')).toMatch(
        /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
      );
      const permissions = (await response.headerValue('permissions-policy')) ?? '';
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment']) {
        expect(permissions).toContain(`${feature}=()`);
      }
    });
  }

  test('the page runs without a single CSP violation, hydrated and used', async ({ page }) => {
    const violations = await watchCsp(page);
    const log = watchConsole(page);
    await page.goto('/');
    const wallet = page.getByRole('button', { name: 'Connect Wallet', exact: true });
    await waitForHydration(page);
    await wallet.click();
    await page.locator('.accordion summary').last().click();
    await scrollToBottom(page);
    expect(await violations()).toEqual([]);

    await page.goto('/privacy');
    await scrollToBottom(page);
    expect(await violations()).toEqual([]);
    expect(log.problems.filter((line) => /content security policy/i.test(line))).toEqual([]);
  });

  test('the policy is enforced: an injected inline script is blocked and reported', async ({ page }) => {
    const violations = await watchCsp(page);
    const log = watchConsole(page);
    await page.goto('/');
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true;';
      document.body.append(script);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(violations).toContainEqual(expect.objectContaining({ blocked: 'inline' }));
    expect(log.problems.some((line) => /content security policy/i.test(line))).toBe(true);
  });
});
