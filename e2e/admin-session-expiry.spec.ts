// Session expiry in a real Chromium: 30 idle minutes, renewed on activity once less than 5 are
// left, and 12 hours at most whatever the activity. The server's clock is moved forward by the
// test (e2e/clocked-console-server.ts); the console has no timers of its own to move, so the
// browser keeps the real clock and learns of the expiry from the server's next answer (the Audience
// view's polling timer is the one exception: that test moves the page's clock too).
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { adminApiPaths } from '../src/shared/paths.ts';
import { newOperator, ownAddress, signIn } from './admin-support.ts';
import { startClockedConsoleServer, type ClockedConsoleServer } from './clocked-console-server.ts';
import { e2eTarget } from './e2e-target.ts';

const MINUTE = 60_000;

let server: ClockedConsoleServer;
let context: BrowserContext | undefined;
test.beforeEach(async () => {
  server = await startClockedConsoleServer(e2eTarget().databaseUrl);
});
// The browser first, so the server has no open connection left to wait for, pass or fail.
test.afterEach(async () => {
  await context?.close();
  context = undefined;
  await server.close();
});

async function signedInPage(browser: Browser, label: string): Promise<Page> {
  context = await browser.newContext({ baseURL: server.origin });
  const page = await context.newPage();
  await ownAddress(page);
  await signIn(page, await newOperator(label));
  return page;
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Console' });

/** One console action that asks the server: open a view and wait for its data. */
async function act(page: Page, view: 'Sessions' | 'Audit log') {
  await nav(page).getByRole('link', { name: view }).click();
  const loaded =
    view === 'Sessions'
      ? page.getByRole('cell', { name: /This session/ })
      : page.getByRole('cell', { name: 'Signed in' }).first();
  await expect(loaded).toBeVisible();
}

async function expectSentToSignIn(page: Page) {
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  await expect(page.getByText('You are signed out, or your session has ended. Please sign in again.')).toBeVisible();
  await expect(nav(page)).toHaveCount(0);
}

test('30 minutes without activity end the session; the next action says so on the sign-in screen', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'idle');
  // 20 minutes on, 10 are left: the action works and does not renew (renewal waits for < 5).
  server.advance(20 * MINUTE);
  await act(page, 'Audit log');
  // 31 minutes after signing in: ended, though the last action was 11 minutes ago.
  server.advance(11 * MINUTE);
  await nav(page).getByRole('link', { name: 'Sessions' }).click();
  await expectSentToSignIn(page);
  // The server forgot the session: a reload finds nobody signed in.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
});

test('activity with less than 5 minutes left renews the session for another 30', async ({ browser }) => {
  const page = await signedInPage(browser, 'renew');
  server.advance(26 * MINUTE);
  await act(page, 'Audit log'); // 4 minutes left: renewed until minute 56
  server.advance(26 * MINUTE);
  await act(page, 'Sessions'); // minute 52: alive only because of the renewal
  server.advance(31 * MINUTE);
  await nav(page).getByRole('link', { name: 'Audit log' }).click();
  await expectSentToSignIn(page);
});

test('12 hours after signing in the session ends, however active', async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await signedInPage(browser, 'absolute');
  // An action every 26 minutes (each one renews) up to 11 h 42 min...
  for (let step = 1; step <= 27; step++) {
    server.advance(26 * MINUTE);
    await act(page, step % 2 ? 'Audit log' : 'Sessions');
  }
  // ...and 26 minutes later, 12 h 8 min after signing in, the next one is refused.
  server.advance(26 * MINUTE);
  await nav(page).getByRole('link', { name: 'Sessions' }).click();
  await expectSentToSignIn(page);
});

test('a console left open on the Audience view ends after 30 idle minutes: its own polling renews nothing', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'polling');
  // The view's live count is polled by a page timer (every minute): the page's clock is moved by
  // hand from here on, so a poll happens when the test says.
  await page.clock.install();
  await nav(page).getByRole('link', { name: 'Audience' }).click();
  await expect(page.getByRole('heading', { name: 'Audience' })).toBeVisible();
  // The report and the first live count have answered: a report request still on its way when the
  // server's clock moves would renew the session (it is the operator's), and the test would be
  // measuring a race, not the polling.
  await expect(page.getByRole('list', { name: 'Totals' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'in the last' })).not.toContainText('loading');
  const poll = async (): Promise<number> => {
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === adminApiPaths.audienceLive);
    await page.clock.runFor(60_000);
    return (await answered).status();
  };
  // 26 minutes on (4 left): the poll is answered but does not renew, as an operator's action would.
  server.advance(26 * MINUTE);
  expect(await poll()).toBe(200);
  // 31 minutes after the last thing the operator did: ended.
  server.advance(5 * MINUTE);
  expect(await poll()).toBe(401);
  await expectSentToSignIn(page);
});
