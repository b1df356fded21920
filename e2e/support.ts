// Shared helpers for the browser tests. The page's words come from the one content file, so a
// re-brand changes the expectations with it.
import type { ConsoleMessage, Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { siteContent } from '../content/site-content.ts';

export const content = siteContent;

/** Widths the product promises to support, around the 500 px layout switch. */
export const PHONE = { width: 375, height: 740 } as const;
export const DESKTOP = { width: 1280, height: 900 } as const;

/** A path the server has no page for. */
export const MISSING_PATH = '/this-page-does-not-exist';

export interface ConsoleLog {
  /** Console messages of type error or warning, and uncaught page errors, in order. */
  problems: string[];
  errors: string[];
}

/** Start recording console errors/warnings and page errors; call before navigating. */
export function watchConsole(page: Page): ConsoleLog {
  const log: ConsoleLog = { problems: [], errors: [] };
  page.on('console', (message: ConsoleMessage) => {
    const type = message.type();
    if (type !== 'error' && type !== 'warning') return;
    const where = message.location().url;
    const line = `[console.${type}] ${message.text()}${where ? ` @ ${where}` : ''}`;
    log.problems.push(line);
    if (type === 'error') log.errors.push(line);
  });
  page.on('pageerror', (error) => {
    const line = `[pageerror] ${error.name}: ${error.message}`;
    log.problems.push(line);
    log.errors.push(line);
  });
  return log;
}

/** Scroll to the very bottom, then wait until the lazily loaded images there have arrived. */
export async function scrollToBottom(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect
    .poll(() =>
      page.evaluate(() => {
        const atBottom =
          Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 1;
        const imagesDone = [...document.images].every((img) => img.complete);
        return atBottom && imagesDone;
      }),
    )
    .toBe(true);
}

/**
 * Wait until React has hydrated the page: SitePage marks <html data-hydrated="true"> from an
 * effect, which runs only after hydration has committed.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator('html'), 'React should hydrate the page').toHaveAttribute('data-hydrated', 'true');
}

/**
 * Which way a card face points: +1 facing the viewer, -1 turned away, from its computed transform
 * (the x scale of its rotateY matrix). Read while transitions may still be running, so poll it.
 */
export function facing(face: Locator): Promise<number> {
  return face.evaluate((el) => {
    const transform = getComputedStyle(el).transform;
    const m11 = transform === 'none' ? 1 : new DOMMatrixReadOnly(transform).m11;
    return Math.round(m11);
  });
}
