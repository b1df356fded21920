// Shared helpers for the browser tests. The page's words come from the one content file, so a
// re-brand changes the expectations with it.
import type { CDPSession, ConsoleMessage, Locator, Page, Route } from '@playwright/test';
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
        const atBottom = Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 1;
        const imagesDone = [...document.images].every((img) => img.complete);
        return atBottom && imagesDone;
      }),
    )
    .toBe(true);
}

/**
 * Wait until the page's loader has run (src/client/site/entry-client.ts marks <html
 * data-hydrated="true">): every island is armed and wakes when it is needed. React itself loads
 * only with an island; see `waitForIsland`.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator('html'), 'the page loader should run').toHaveAttribute('data-hydrated', 'true');
}

export type IslandName = 'wallet' | 'signup' | 'countdown' | 'allowlist';

/**
 * Wait until one island's code has arrived and taken over its part of the page. A fresh context
 * has nothing cached, so this is React's 219 kB chunk fetched, parsed and run: 0.3–0.6 s on a
 * quiet machine, but once past 5 s in CI (2026-11-28), with both projects' servers and browsers
 * on two cores. The wait is for a condition, so a longer bound costs a passing test nothing.
 */
export async function waitForIsland(page: Page, name: IslandName): Promise<void> {
  await expect(page.locator(`[data-island="${name}"]`), `the ${name} island should hydrate`).toHaveAttribute(
    'data-island-state',
    'hydrated',
    { timeout: 15_000 },
  );
}

/** A built chunk's path (/assets/<name>-<hash>.js), as a pattern. */
export const chunkPath = (name: string): RegExp => new RegExp(`^/assets/${name}-[\\w-]+\\.js$`);

/** Holds every request for one chunk (`entry-client`, `wallet-island`, …) until `release` is called. */
export async function holdChunk(page: Page, name: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/assets/${name}-*.js`, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Opens `url` with the islands' loader held back, and returns once the page has painted and asked
 * for it: the moment a quick tap on a slow phone lands in. The held loader holds the load event too,
 * so only the document is waited for. Call the returned function to let the loader arrive.
 */
export async function openBeforeLoader(page: Page, url: string): Promise<() => void> {
  const release = await holdChunk(page, 'entry-client');
  const requested = page.waitForRequest((r) => chunkPath('entry-client').test(new URL(r.url()).pathname));
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await requested;
  return release;
}

/** The scripts the page has requested so far, as paths (/assets/…). */
export function watchScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

const cdpSessions = new WeakMap<Page, CDPSession>();

/**
 * What Chromium's own accessibility tree says about the element with this id: the role and
 * states a screen reader is given (not what the markup claims).
 */
export async function accessibilityNode(
  page: Page,
  id: string,
): Promise<{ role: string; name: string; expanded: boolean | undefined }> {
  // One DevTools session per page, kept: a test polls this many times, and opening a session for
  // each poll cost seconds per test on a busy machine (a FAQ test once ran past its 30 s).
  let cdp = cdpSessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    cdpSessions.set(page, cdp);
  }
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `#${id}` });
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
  const node = nodes[0];
  const expanded = node?.properties?.find((p) => p.name === 'expanded')?.value.value as boolean | undefined;
  return { role: String(node?.role?.value ?? ''), name: String(node?.name?.value ?? ''), expanded };
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

export interface CspViolation {
  directive: string;
  blocked: string;
}

/** Record Content Security Policy violations the page reports, from before its first script. */
export async function watchCsp(page: Page): Promise<() => Promise<CspViolation[]>> {
  await page.addInitScript(() => {
    const found: { directive: string; blocked: string }[] = [];
    Object.defineProperty(window, '__cspViolations', { value: found });
    document.addEventListener('securitypolicyviolation', (e) => {
      found.push({ directive: e.effectiveDirective, blocked: e.blockedURI });
    });
  });
  return () =>
    page.evaluate(
      () => (window as unknown as { __cspViolations: { directive: string; blocked: string }[] }).__cspViolations,
    );
}
