// The presale countdown (content file: presaleDate + presaleUrl), before, at and after the
// moment, with JavaScript off (what the server rendered) and on (the ticking island), on a fixed
// clock: the server's is set by the test (countdown-server.ts), the browser's by page.clock.
import { expect, test, type Page } from '@playwright/test';
import { catalog } from '../content/messages/catalog.ts';
import { localeInfo } from '../content/messages/locale-info.ts';
import { localePath } from '../src/shared/locale-paths.ts';
import { startCountdownServer, type CountdownServer } from './countdown-server.ts';
import { waitForIsland, watchConsole } from './support.ts';

const opensAtIso = '2026-12-01T20:00:00+02:00';
const opensAt = Date.parse(opensAtIso); // 18:00 UTC
const presaleUrl = 'https://presale.example/dh';
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

let server: CountdownServer | undefined;
// The page goes first: a browser still holding a connection open would keep the server's close
// waiting, and the test's time with it.
test.afterEach(async ({ page }) => {
  await page.close();
  await server?.close();
  server = undefined;
});

async function open(page: Page, serverNow: number): Promise<void> {
  server = await startCountdownServer({ opensAt: opensAtIso, url: presaleUrl, now: serverNow });
  await page.goto(`${server.origin}/`);
}

function banner(page: Page) {
  const region = page.getByRole('region', { name: /GET READY FOR THE HOTTEST CRYPTO PRESALE/ });
  return {
    sentence: region.locator('.banner-status'),
    clock: region.locator('.countdown-clock'),
    value: (unit: 'days' | 'hours' | 'minutes' | 'seconds') => region.locator(`[data-countdown="${unit}"]`),
    seconds: region.locator('.countdown-seconds'),
    link: region.getByRole('link', { name: 'Join the presale', exact: true }),
  };
}

async function expectClock(page: Page, d: string, h: string, m: string, s: string): Promise<void> {
  const b = banner(page);
  await expect(b.value('days')).toHaveText(d);
  await expect(b.value('hours')).toHaveText(h);
  await expect(b.value('minutes')).toHaveText(m);
  await expect(b.value('seconds')).toHaveText(s);
}

test.describe('with JavaScript off: what the server rendered', () => {
  test.use({ javaScriptEnabled: false });

  test('before: the time left, to the minute, in words; no clock that could only stand still', async ({ page }) => {
    await open(page, opensAt - (12 * D + 3 * H + 4 * M + 30 * S));
    const b = banner(page);
    await expect(b.sentence).toHaveText('Presale opens in 12 days, 3 hours and 5 minutes');
    await expect(b.clock).toBeHidden();
    await expect(b.link).toBeHidden();

    // A minute later the server has rendered the page again.
    server?.setNow(opensAt - (12 * D + 3 * H + 3 * M + 30 * S));
    await page.reload();
    await expect(b.sentence).toHaveText('Presale opens in 12 days, 3 hours and 4 minutes');
  });

  test('at the moment: it says the presale is open and links where the content file says', async ({ page }) => {
    await open(page, opensAt);
    const b = banner(page);
    await expect(b.sentence).toHaveText('The presale is open');
    await expect(b.link).toBeVisible();
    await expect(b.link).toHaveAttribute('href', presaleUrl);
    await expect(b.clock).toBeHidden();
  });

  test('after the moment: still open', async ({ page }) => {
    await open(page, opensAt + 2 * D);
    const b = banner(page);
    await expect(b.sentence).toHaveText('The presale is open');
    await expect(b.link).toHaveAttribute('href', presaleUrl);
  });
});

test.describe('with JavaScript on: the island ticks', () => {
  test('before: ticks every second, speaks at most once a minute, and opens at zero', async ({ page }) => {
    // Real seconds tick on the page before the clock is held: about 9 s on a quiet machine.
    // Twice that, on a slower machine, stays within half of 60 s.
    test.setTimeout(60_000);
    const log = watchConsole(page);
    const start = opensAt - 150 * S;
    // Both clocks start at the same moment; the page loads with time running, then the test
    // holds it and moves it by hand.
    await page.clock.install({ time: start });
    await open(page, start);
    await waitForIsland(page, 'countdown');
    const b = banner(page);
    await page.clock.pauseAt(opensAt - 90 * S);
    // Every change of the polite live region from here on.
    await b.sentence.evaluate((el) => {
      const said: string[] = [];
      Object.defineProperty(window, '__said', { value: said });
      new MutationObserver(() => said.push(el.textContent ?? '')).observe(el, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    const said = () => page.evaluate(() => (window as unknown as { __said: string[] }).__said);

    await expectClock(page, '00', '00', '01', '30');
    await expect(b.sentence).toHaveText('Presale opens in 2 minutes');
    await expect(b.clock).toBeVisible();
    await expect(b.link).toBeHidden();

    await page.clock.runFor(1000);
    await expectClock(page, '00', '00', '01', '29');
    await page.clock.runFor(29 * S);
    await expectClock(page, '00', '00', '01', '00');
    await expect(b.sentence).toHaveText('Presale opens in 1 minute');
    await page.clock.runFor(59 * S);
    await expectClock(page, '00', '00', '00', '01');
    await expect(b.link).toBeHidden();

    await page.clock.runFor(1000);
    await expect(b.sentence).toHaveText('The presale is open');
    await expect(b.link).toBeVisible();
    await expect(b.link).toHaveAttribute('href', presaleUrl);
    await expect(b.clock).toBeHidden();
    // 90 seconds of ticking, two things said: a minute left, then open.
    expect(await said()).toEqual(['Presale opens in 1 minute', 'The presale is open']);
    expect(log.problems).toEqual([]);
  });

  test('at and after the moment: open, no clock, nothing ticking', async ({ page }) => {
    const log = watchConsole(page);
    await page.clock.install({ time: opensAt + M });
    await open(page, opensAt + M);
    await waitForIsland(page, 'countdown');
    const b = banner(page);
    await expect(b.sentence).toHaveText('The presale is open');
    await expect(b.link).toBeVisible();
    await expect(b.clock).toBeHidden();
    expect(log.problems).toEqual([]);
  });

  test.describe('with reduced motion', () => {
    test.use({ reducedMotion: 'reduce' });

    test('no seconds, and the clock moves once a minute', async ({ page }) => {
      const start = opensAt - 10 * M;
      await page.clock.install({ time: start });
      await open(page, start);
      await waitForIsland(page, 'countdown');
      const b = banner(page);
      await page.clock.pauseAt(opensAt - 5 * M - 30 * S);
      await expect(b.seconds).toHaveCSS('visibility', 'hidden');
      // Rounded up to the minute, as the sentence is.
      await expect(b.value('minutes')).toHaveText('06');
      await expect(b.sentence).toHaveText('Presale opens in 6 minutes');
      const secondsBefore = await b.value('seconds').textContent();
      await page.clock.runFor(20 * S);
      await expect(b.value('minutes')).toHaveText('06');
      expect(await b.value('seconds').textContent()).toBe(secondsBefore);
      await page.clock.runFor(10 * S);
      await expect(b.value('minutes')).toHaveText('05');
      await expect(b.sentence).toHaveText('Presale opens in 5 minutes');
    });
  });
});

test.describe("in another language: the island ticks in the page's words", () => {
  for (const locale of ['ar', 'zh-cn'] as const) {
    test(`${locale}: the sentence, the clock's digits and the moment it opens`, async ({ page }) => {
      const words = catalog[locale];
      const digits = new Intl.NumberFormat(localeInfo[locale].tag, { minimumIntegerDigits: 2, useGrouping: false });
      const start = opensAt - 150 * S;
      await page.clock.install({ time: start });
      server = await startCountdownServer({ opensAt: opensAtIso, url: presaleUrl, now: start });
      await page.goto(`${server.origin}${localePath(locale, '/')}`);
      await waitForIsland(page, 'countdown');
      await page.clock.pauseAt(opensAt - 90 * S);
      const sentence = page.locator('[data-countdown="sentence"]');
      await expect(sentence).toHaveText(words.countdown.opensIn({ days: 0, hours: 0, minutes: 2 }));
      await expect(page.locator('[data-countdown="minutes"]')).toHaveText(digits.format(1));
      await expect(page.locator('[data-countdown="seconds"]')).toHaveText(digits.format(30));
      await page.clock.runFor(30 * S);
      await expect(sentence).toHaveText(words.countdown.opensIn({ days: 0, hours: 0, minutes: 1 }));
      await page.clock.runFor(60 * S);
      await expect(sentence).toHaveText(words.countdown.open);
      await expect(page.getByRole('link', { name: words.countdownLabels.join, exact: true })).toBeVisible();
    });
  }
});
