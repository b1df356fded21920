// The visit beacon: one cookie-less POST to our own origin after the page has loaded, none at all
// when the visitor asks not to be tracked, and a script too small to matter.
import { expect, test, type Page, type Request } from '@playwright/test';
import { waitForHydration } from './support.ts';

const VISIT = '/api/visit';

/** Every request the page makes, and the ones to /api/visit among them. */
function watchRequests(page: Page): { all: Request[]; visits: Request[] } {
  const seen = { all: [] as Request[], visits: [] as Request[] };
  page.on('request', (request) => {
    seen.all.push(request);
    if (new URL(request.url()).pathname === VISIT) seen.visits.push(request);
  });
  return seen;
}

/**
 * Load the home page and let it settle: the beacon goes out just after `load`, so by `networkidle`
 * (500 ms without a request, after load) it has been sent, or it is not going to be.
 */
async function loadHome(page: Page): Promise<void> {
  const response = await page.goto('/', { waitUntil: 'networkidle' });
  expect(response?.status()).toBe(200);
}

type PrivacyProbe = Window & { privacySignalRead?: boolean };

/**
 * Waits until the beacon script has loaded and read the visitor's privacy signal (the test's own
 * getter notes the read), then lets the page's pending timers run: by then the beacon has decided,
 * and a beacon it meant to send would have left. `networkidle` alone raced the script on a busy
 * machine: the page can be quiet for 500 ms before its after-paint script has even been fetched.
 */
async function beaconDecided(page: Page, seen: { all: Request[] }): Promise<void> {
  await expect.poll(() => seen.all.some((r) => /\/assets\/beacon-[^/]+\.js$/.test(r.url()))).toBe(true);
  await expect.poll(() => page.evaluate(() => (window as PrivacyProbe).privacySignalRead === true)).toBe(true);
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

test.describe('the visit beacon', () => {
  test.use({ timezoneId: 'Europe/Berlin', locale: 'en-GB' });

  test('sends exactly one cookie-less POST to our origin; nothing goes anywhere else', async ({
    page,
    context,
    baseURL,
  }) => {
    const origin = new URL(baseURL ?? '').origin;
    // First visit: the hydrated form fetches /api/csrf, which sets the visitor cookies.
    await loadHome(page);
    await waitForHydration(page);
    await expect
      .poll(async () => (await context.cookies(origin)).map((c) => c.name).sort())
      .toEqual(['XSRF-TOKEN', '_csrf', 'dh_t']);

    const seen = watchRequests(page);
    const reloaded = await page.reload({ waitUntil: 'networkidle' });
    expect(reloaded?.status()).toBe(200);

    // The cookies exist and the browser does send them to our origin...
    const documentHeaders = await reloaded?.request().allHeaders();
    expect(documentHeaders?.cookie).toContain('XSRF-TOKEN=');

    // The beacon leaves after load, and a busy machine can be quiet for 500 ms before it does.
    await expect.poll(() => seen.visits.length).toBe(1);
    const [beacon] = seen.visits;
    if (!beacon) throw new Error('no beacon');
    expect(beacon.method()).toBe('POST');
    expect(new URL(beacon.url()).origin).toBe(origin);
    // ...but not with the beacon.
    const headers = await beacon.allHeaders();
    expect(headers.cookie).toBeUndefined();
    expect(headers['content-type']).toMatch(/^application\/json/);

    const body: unknown = beacon.postDataJSON();
    expect(body).toEqual({ p: '/', r: expect.any(String), tz: 'Europe/Berlin', l: 'en-GB' });
    const response = await beacon.response();
    expect(response?.status()).toBe(204);

    expect(seen.all.length).toBeGreaterThan(1);
    expect(seen.all.map((r) => r.url()).filter((url) => new URL(url).origin !== origin)).toEqual([]);
  });

  test('Global Privacy Control on: no beacon at all', async ({ page }) => {
    await page.addInitScript(() =>
      Object.defineProperty(navigator, 'globalPrivacyControl', {
        get: () => ((window as PrivacyProbe).privacySignalRead = true),
      }),
    );
    const seen = watchRequests(page);
    await loadHome(page);
    // The beacon script did load and run; it chose not to send.
    await beaconDecided(page, seen);
    expect(
      await page.evaluate(() => (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl),
    ).toBe(true);
    expect(seen.visits).toEqual([]);
  });

  test('Do Not Track on: no beacon at all', async ({ page }) => {
    await page.addInitScript(() =>
      Object.defineProperty(navigator, 'doNotTrack', {
        get: () => {
          (window as PrivacyProbe).privacySignalRead = true;
          return '1';
        },
      }),
    );
    const seen = watchRequests(page);
    await loadHome(page);
    await beaconDecided(page, seen);
    expect(await page.evaluate(() => navigator.doNotTrack)).toBe('1');
    expect(seen.visits).toEqual([]);
  });

  test('the beacon script is a module added after first paint, at most 1 KB compressed', async ({ page }) => {
    const html = await (await page.request.get('/')).text();
    // The page's one inline script (the loader) names it; nothing in the HTML fetches it early.
    const src = /"(\/assets\/beacon-[^"]+\.js)"/.exec(html)?.[1];
    expect(src, 'the page should name the beacon in its loader').toBeTruthy();
    expect(html).not.toContain(`src="${src ?? ''}"`);

    const response = await page.request.get(src ?? '', { headers: { 'accept-encoding': 'br' } });
    expect(response.status()).toBe(200);
    expect(response.headers()['content-encoding']).toBe('br');
    // The client hands back the body decompressed; the bytes on the wire are the Content-Length.
    const wireBytes = Number(response.headers()['content-length']);
    expect(wireBytes).toBeGreaterThan(0);
    expect(wireBytes).toBeLessThanOrEqual(1024);
    expect((await response.body()).length).toBeGreaterThan(0);

    // Added by the loader once the page has painted, as a module script.
    await page.goto('/');
    const script = page.locator(`script[src="${src ?? ''}"]`);
    await expect(script).toHaveCount(1);
    await expect(script).toHaveAttribute('type', 'module');
  });

  test('with every script held on the network, never answered, the page is still painted and complete', async ({
    page,
  }) => {
    await page.route('**/assets/*.js', () => undefined);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await expect.poll(() => page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length)).toBe(1);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('footer').getByRole('link', { name: 'Privacy notice' })).toBeVisible();
  });
});
