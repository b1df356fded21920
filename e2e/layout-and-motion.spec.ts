// Layout across widths (320 px up, switching at 500 px), the scroll-to-top on load, and the
// clouds' motion with and without prefers-reduced-motion.
import { expect, test, type Page } from '@playwright/test';
import { DESKTOP, scrollToBottom, waitForHydration } from './support.ts';

test.describe('no sideways scrolling', () => {
  for (const width of [320, 375, 500, 1280]) {
    test(`at ${width} px wide`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/');
      await scrollToBottom(page);

      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(clientWidth).toBe(width);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);

      // body has overflow-x: hidden, which would hide (and cut off) anything too wide rather than
      // scroll to it, so also check that no element is cut by either edge or pushed off to the
      // right. Wholly off to the left is the deliberate hiding trick (e.g. the form's honeypot).
      const outside = await page.evaluate(() => {
        const limit = document.documentElement.clientWidth;
        const found: string[] = [];
        for (const el of document.querySelectorAll('.page *')) {
          if (el.closest('.visually-hidden')) continue;
          const rect = el.getBoundingClientRect();
          if (rect.width === 0 || rect.height === 0 || rect.right <= 0) continue;
          if (rect.left < -0.5 || rect.right > limit + 0.5) {
            found.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} [${rect.left}, ${rect.right}]`);
          }
        }
        return found;
      });
      expect(outside, 'elements outside the viewport').toEqual([]);
    });
  }
});

test.describe('layout switch at 500 px', () => {
  async function faqBoxes(page: Page, width: number) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    const faq = page.getByRole('region', { name: 'FAQS', exact: true });
    const mascot = faq.locator('.mascot');
    const accordion = faq.locator('.accordion');
    await mascot.scrollIntoViewIfNeeded();
    const [m, a] = [await mascot.boundingBox(), await accordion.boundingBox()];
    if (!m || !a) throw new Error('mascot and accordion should both be laid out');
    expect(m.height).toBeGreaterThan(50);
    return { mascot: m, accordion: a };
  }

  test('at 499 px the FAQ mascot is stacked above the accordion', async ({ page }) => {
    const { mascot, accordion } = await faqBoxes(page, 499);
    expect(mascot.y + mascot.height).toBeLessThanOrEqual(accordion.y);
    // Side by side would put the accordion beside the mascot; stacked, they overlap horizontally.
    expect(accordion.x).toBeLessThan(mascot.x + mascot.width);
  });

  test('at 500 px the FAQ mascot sits beside the accordion', async ({ page }) => {
    const { mascot, accordion } = await faqBoxes(page, 500);
    expect(mascot.x + mascot.width).toBeLessThanOrEqual(accordion.x);
    expect(Math.abs(mascot.y - accordion.y)).toBeLessThan(2);
  });
});

test.describe('scroll position on load', () => {
  test('the page opens at the top, even on reload after scrolling down', async ({ page }) => {
    await page.goto('/');
    await scrollToBottom(page);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);

    await page.reload();
    // The page's script is what overrides the browser's scroll restoration; make sure it ran.
    await waitForHydration(page);
    // Chromium restores the old position during and just after load; give it a few frames to
    // do so before reading.
    const scrollY = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let frames = 0;
          const tick = () => (++frames >= 5 ? resolve(window.scrollY) : requestAnimationFrame(tick));
          requestAnimationFrame(tick);
        }),
    );
    expect(scrollY).toBe(0);
  });

  test('a link to a section still lands on that section', async ({ page }) => {
    await page.goto('/#stay-updated');
    const heading = page.getByRole('heading', { name: 'Stay Updated' });
    await expect(heading).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });
});

/** Each cloud's animation name, and its transform now and after `frames` animation frames. */
function sampleClouds(page: Page, frames: number) {
  return page.evaluate(async (frameCount) => {
    const clouds = [...document.querySelectorAll<HTMLElement>('.cloud')];
    const before = clouds.map((c) => getComputedStyle(c).transform);
    await new Promise<void>((resolve) => {
      let n = 0;
      const tick = () => (++n >= frameCount ? resolve() : requestAnimationFrame(tick));
      requestAnimationFrame(tick);
    });
    return clouds.map((c, i) => ({
      animationName: getComputedStyle(c).animationName,
      running: c.getAnimations().length,
      before: before[i],
      after: getComputedStyle(c).transform,
    }));
  }, frames);
}

test.describe('clouds', () => {
  test.use({ viewport: DESKTOP });

  test('drift across the sky normally', async ({ page }) => {
    await page.goto('/');
    const clouds = await sampleClouds(page, 15);
    expect(clouds).toHaveLength(4);
    for (const cloud of clouds) {
      expect(cloud.animationName).toBe('drift');
      expect(cloud.running).toBeGreaterThan(0);
      expect(cloud.after).not.toBe(cloud.before);
    }
    // Decoration only: hidden from screen readers.
    await expect(page.locator('.clouds')).toHaveAttribute('aria-hidden', 'true');
  });

  test.describe('with prefers-reduced-motion', () => {
    test.use({ reducedMotion: 'reduce' });

    test('stand still', async ({ page }) => {
      await page.goto('/');
      // About a quarter of a second: the slowest cloud drifts several pixels in that time.
      const clouds = await sampleClouds(page, 15);
      expect(clouds).toHaveLength(4);
      for (const cloud of clouds) {
        expect(cloud.animationName).toBe('none');
        expect(cloud.running).toBe(0);
        expect(cloud.after).toBe(cloud.before);
      }
    });
  });
});
