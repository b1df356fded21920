// The operators' console in a real Chromium against the real server on http://127.0.0.1.
import { expect, test } from '@playwright/test';
import { PHONE, watchCsp } from './support.ts';
import { axeViolations, newOperator, nextCode, ownAddress, PASSWORD, signIn } from './admin-support.ts';
import { startClockedConsoleServer } from './clocked-console-server.ts';
import { e2eTarget } from './e2e-target.ts';

test.beforeEach(async ({ page }) => {
  await ownAddress(page);
});

test('signs in with password and authenticator code; the session is an HttpOnly __Host- cookie, nothing in storage', async ({
  page,
  context,
}) => {
  // A sign-in journey with its checks of cookies and storage: about 8 s on a quiet machine.
  // Twice that, on a slower machine, stays within half of 60 s.
  test.setTimeout(60_000);
  const op = await newOperator('totp');
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  await expect(page.getByLabel('Email')).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);

  await page.getByLabel('Email').fill(op.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Enter your authenticator code' })).toBeVisible();
  await expect(page.getByLabel('6-digit code')).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);

  await page.getByLabel('6-digit code').fill('000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('That code is not right')).toBeVisible();
  await page.getByLabel('6-digit code').fill(await nextCode(op));
  await page.getByRole('button', { name: 'Sign in' }).click();

  const nav = page.getByRole('navigation', { name: 'Console' });
  for (const view of ['Subscribers', 'Audience', 'Broadcast', 'Sessions', 'Audit log'])
    await expect(nav.getByRole('link', { name: view })).toBeVisible();
  await expect(page.getByText(op.email)).toBeVisible();

  // Chromium keeps a Secure cookie from http://127.0.0.1 (a secure context): verified, not assumed.
  const session = (await context.cookies()).find((c) => c.name === '__Host-dh_admin');
  expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
  expect(await page.evaluate(() => document.cookie)).not.toContain('__Host-dh_admin');
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);

  await page.reload();
  await expect(nav).toBeVisible();
  await nav.getByRole('link', { name: 'Sessions' }).click();
  await expect(page).toHaveURL(/\/admin\/sessions$/);
  await expect(page.getByRole('cell', { name: /This session/ })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await nav.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('cell', { name: 'Signed in' }).first()).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
});

test('signs in with a recovery code, once', async ({ page }) => {
  const op = await newOperator('recovery');
  const code = op.recoveryCodes[0] ?? '';
  await signIn(page, op, 'recovery');
  await page.getByRole('button', { name: 'Sign out' }).click();

  await page.getByLabel('Email').fill(op.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('That code is not right, or it has been used already')).toBeVisible();
});

test('backs off after five failed sign-ins: 30 s, then 60 s, said in words', async ({ browser }) => {
  // The 30 s wait passes on clocks the test moves: the server's (clocked-console-server.ts) and the
  // page's countdown (page.clock), so the journey takes seconds, not half a minute of waiting.
  const server = await startClockedConsoleServer(e2eTarget().databaseUrl);
  const context = await browser.newContext({ baseURL: server.origin });
  try {
    const page = await context.newPage();
    await ownAddress(page);
    await page.clock.install();
    const op = await newOperator('backoff');
    await page.goto('/admin');
    await page.getByLabel('Email').fill(op.email);
    const tryWrong = async () => {
      await page.getByLabel('Password').fill('not the password, sorry');
      await page.getByRole('button', { name: 'Continue' }).click();
    };
    for (let i = 0; i < 5; i++) {
      await tryWrong();
      await expect(page.getByText('That email and password do not match an operator')).toBeVisible();
      await page.getByLabel('Password').fill('');
    }
    await tryWrong();
    await expect(page.getByRole('alert')).toContainText(/Please wait (30|29|28) seconds/);
    const button = page.getByRole('button', { name: 'Continue' });
    await expect(button).toBeDisabled();
    // Most of the wait: the countdown says what is left, and the button stays disabled.
    server.advance(20_000);
    await page.clock.runFor(20_000);
    await expect(page.getByRole('alert')).toContainText(/\((10|9|8) s\)$/);
    await expect(button).toBeDisabled();
    // The countdown ends with the server's wait; then one more failure doubles it.
    server.advance(10_000);
    await page.clock.runFor(10_000);
    await expect(button).toBeEnabled();
    await tryWrong();
    await expect(page.getByText('That email and password do not match an operator')).toBeVisible();
    await tryWrong();
    await expect(page.getByRole('alert')).toContainText(/Please wait (60|59|58) seconds/);
  } finally {
    // The browser first, so the server has no open connection left to wait for.
    await context.close();
    await server.close();
  }
});

test('signs out everywhere after the fresh-proof prompt; the other browser is signed out too', async ({
  page,
  browser,
}) => {
  const op = await newOperator('everywhere');
  const other = await browser.newPage();
  await ownAddress(other);
  await signIn(other, op);
  // Signed in with a recovery code: no fresh proof yet, so the console asks for a code.
  await signIn(page, op, 'recovery');
  await page.getByRole('link', { name: 'Sessions' }).click();
  await expect(page.getByRole('row')).toHaveCount(3);
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('6-digit code')).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row')).toHaveCount(3);

  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await dialog.getByLabel('6-digit code').fill('123 45');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('Please enter the 6-digit code')).toBeVisible();
  await dialog.getByLabel('6-digit code').fill(await nextCode(op));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(/Signed out everywhere \(2 sessions ended\)/)).toBeVisible();

  await other.reload();
  await expect(other.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  await other.close();
});

test('names and user agents render as text: no script runs, no CSP violation', async ({ browser }) => {
  const payload = '<img src=x onerror=alert(1)>';
  const context = await browser.newContext({ userAgent: `${payload}/1.0 (x)` });
  const page = await context.newPage();
  await ownAddress(page);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const cspViolations = await watchCsp(page);
  const op = await newOperator('xss');
  await signIn(page, op);
  await page.getByRole('link', { name: 'Sessions' }).click();
  await expect(page.locator('td[data-label="Browser"]')).toHaveText(`${payload} This session`.replace(' This', 'This'));
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('cell', { name: payload }).first()).toBeVisible();
  expect(await page.locator('img').count()).toBe(0);
  expect(dialogs).toEqual([]);
  expect(await cspViolations()).toEqual([]);
  await context.close();
});

test('works at phone width: no sideways scrolling, the views reachable', async ({ page }) => {
  await page.setViewportSize(PHONE);
  const op = await newOperator('phone');
  await signIn(page, op);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByLabel('Action').selectOption({ label: 'Signed in' });
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByRole('cell', { name: 'Signed in' }).first()).toBeVisible();
});

test('a late 401 to a call made before signing out leaves the "You are signed out." notice in place', async ({
  page,
}) => {
  const op = await newOperator('late401');
  await signIn(page, op);
  // The audience report is held in the network until the operator has signed out; then it goes
  // to the server, which answers 401 (the session is gone) to a view no longer on screen.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/admin\/audience\?/, async (route) => {
    await released;
    await route.continue();
  });
  const held = page.waitForRequest(/\/api\/admin\/audience\?/);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audience' }).click();
  await held;
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  await expect(page.getByText('You are signed out.', { exact: true })).toBeVisible();

  const late = page.waitForEvent('requestfinished', (r) => /\/api\/admin\/audience\?/.test(r.url()));
  release();
  expect((await (await late).response())?.status()).toBe(401);
  // The page has read the late answer once two frames have passed after its body arrived.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await expect(page.getByText('You are signed out.', { exact: true })).toBeVisible();
  await expect(page.getByText(/your session has ended/)).toHaveCount(0);
});
