// What a visitor's browser really fetches and runs when it opens a page and does nothing: the
// scripts that run before the first interaction (lazily loaded islands included, if anything
// loads them without a person) and every other response of that load, as sent (br accepted).
// Measured in Chromium rather than by reading the HTML, because islands load their code with
// dynamic import() and only a browser knows which of those run without a touch.
import { brotliCompressSync, constants } from 'node:zlib';
import { chromium, type BrowserContextOptions, type Page, type Response } from '@playwright/test';
import { chromiumFlags, chromiumPath } from '../../scripts/chromium.ts';
import { assertLocal } from './http.ts';
import { onCleanup } from './processes.ts';

export interface LoadedResponse {
  url: string;
  kind: 'document' | 'script' | 'stylesheet' | 'image' | 'fetch' | 'other';
  /** Body bytes as sent (after content-encoding). */
  encodedBytes: number;
  encoding: string;
}

export interface UntouchedLoad {
  responses: LoadedResponse[];
  /** Inline <script> bodies of the document, brotli-compressed one by one (they run too). */
  inlineScriptsBr: number;
}

const kindOf = (response: Response): LoadedResponse['kind'] => {
  const type = response.request().resourceType();
  if (type === 'document' || type === 'script' || type === 'stylesheet' || type === 'image' || type === 'fetch') {
    return type;
  }
  // A <link rel="modulepreload"> is fetched as "other" but is module code that will run.
  return /\.m?js(?:\?|$)/.test(new URL(response.url()).pathname) ? 'script' : 'other';
};

const brotli = (text: string): number =>
  brotliCompressSync(Buffer.from(text, 'utf8'), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** A phone-like page in a Chromium of its own, closed when `use` is done (or the bench is stopped). */
async function onPhone<T>(url: string, options: BrowserContextOptions, use: (page: Page) => Promise<T>): Promise<T> {
  assertLocal(url);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  const unregister = onCleanup(() => void browser.close());
  try {
    const context = await browser.newContext({ isMobile: true, hasTouch: true, ...options });
    return await use(await context.newPage());
  } finally {
    unregister();
    await browser.close();
  }
}

/**
 * Opens `url` in a fresh Chromium at a phone's size (Lighthouse's Moto G Power), waits until the
 * network has been quiet, and lists what came in. No scroll, no pointer, no key.
 */
export function loadUntouched(url: string): Promise<UntouchedLoad> {
  return onPhone(url, { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 }, async (page) => {
    const pending: Promise<LoadedResponse>[] = [];
    page.on('response', (response) => {
      pending.push(
        response
          .request()
          .sizes()
          .then((sizes) => ({
            url: response.url(),
            kind: kindOf(response),
            encodedBytes: sizes.responseBodySize,
            encoding: response.headers()['content-encoding'] ?? 'identity',
          })),
      );
    });
    await page.goto(url, { waitUntil: 'load' });
    // Idle-time work (the islands' loader, the beacon, the form's cookies) comes after load.
    await page.waitForLoadState('networkidle');
    const inline = await page.evaluate(() =>
      [...document.querySelectorAll('script:not([src])')]
        .filter((s) => !s.getAttribute('type') || s.getAttribute('type') === 'module')
        .map((s) => s.textContent ?? ''),
    );
    return { responses: await Promise.all(pending), inlineScriptsBr: inline.reduce((t, s) => t + brotli(s), 0) };
  });
}

/**
 * How far the page at `url` is wider than a `width`-pixel phone screen after it has loaded and
 * been scrolled to the bottom (lazy parts in): 0 means nothing scrolls sideways.
 */
export function sidewaysOverflow(url: string, width: number): Promise<number> {
  return onPhone(url, { viewport: { width, height: 640 } }, async (page) => {
    await page.goto(url, { waitUntil: 'load' });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForLoadState('networkidle');
    return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  });
}
