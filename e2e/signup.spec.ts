// The Stay Updated sign-up, end to end in the real browser: with JavaScript (JSON, no reload) and
// without (plain form posts), the confirmation email in the outbox, and its two links, which act
// only when the person presses the button on the page they open (a mail scanner opening them
// changes nothing). A visitor whose cookies were signed with a key the server no longer has (after
// an APP_SECRET rotation) signs up normally.
//
// Every POST to /signup counts against the server's per-address rate limit (SIGNUP_RATE_LIMIT,
// 10 a minute by default, and every test comes from 127.0.0.1): this file makes 11, so the
// browser tests' server raises the limit (playwright.config.ts).
import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { sign } from '@fastify/cookie';
import { expect, test, type BrowserContext, type Locator, type Page, type Request } from '@playwright/test';
import { signupAnswers, signupMessages } from '../content/messages/en/signup.ts';
import { fieldErrorText, parseSignup, type SignupFieldCode } from '../src/shared/signup-schema.ts';
import { mailsTo, uniqueEmail, waitForMail } from './outbox.ts';
import { waitForHydration, waitForIsland } from './support.ts';

const pleasePressAgain = 'Almost there: please press Submit once more to confirm you are a person.';
const correctFields = 'Please correct the highlighted fields.';

function signupForm(page: Page) {
  const form = page.locator('form.signup-form');
  return {
    form,
    name: form.getByLabel('Name', { exact: true }),
    email: form.getByLabel('Email', { exact: true }),
    comment: form.getByLabel(/^Comment/),
    submit: form.getByRole('button', { name: 'Submit', exact: true }),
    status: form.getByRole('status'),
  };
}

type SignupForm = ReturnType<typeof signupForm>;

async function fill(f: SignupForm, values: { name: string; email: string; comment: string }): Promise<void> {
  await f.name.fill(values.name);
  await f.email.fill(values.email);
  await f.comment.fill(values.comment);
}

/** Every request the page makes to /signup, in order. */
function watchSignupRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/signup') seen.push(request);
  });
  return seen;
}

/** The field's error sits in the field's own box, is announced with it, and says `message`. */
async function expectFieldError(field: Locator, message: string): Promise<void> {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(message);
  const box = field.locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " field ")][1]');
  await expect(box.locator('.field-error')).toHaveText(message);
}

async function expectNotice(page: Page, url: string, status: number, title: string): Promise<void> {
  const response = await page.goto(url);
  expect(response?.status(), `${url} should answer ${status}`).toBe(status);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
}

const confirmPage = { title: 'Confirm your sign-up', button: 'Confirm my sign-up', done: 'You are on the list' };
const unsubscribePage = {
  title: 'Unsubscribe from our emails?',
  button: 'Unsubscribe me',
  done: 'You are unsubscribed',
};

/** Opens an emailed link, which only shows its page, then presses its one button as the person does. */
async function openAndPress(page: Page, url: string, link: typeof confirmPage): Promise<void> {
  await expectNotice(page, url, 200, link.title);
  const path = new URL(url).pathname;
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path);
  await page.getByRole('button', { name: link.button, exact: true }).click();
  expect((await answer).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(link.done);
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.flatMap((v) =>
    v.nodes.map((node) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${node.target.join(' ')}`),
  );
}

// What the shared schema says about an empty name and a malformed address: the same words the
// server and the hydrated form use.
const badInput = parseSignup({ name: '', email: 'not-an-email', comment: '' });
const badErrors = badInput.ok ? {} : badInput.errors;
const wordsFor = (code: SignupFieldCode | undefined): string => (code ? fieldErrorText(signupMessages, code) : '');
const nameError = wordsFor(badErrors.name);
const emailError = wordsFor(badErrors.email);

test('schema messages this file relies on are in words', () => {
  expect(nameError).toBe('Please enter your name.');
  expect(emailError).toBe('Please enter a valid email address, like name@example.com.');
});

test.describe('with JavaScript', () => {
  test('sends JSON without a reload, then the email confirms and unsubscribes', async ({ page, context, baseURL }) => {
    // A sign-up, its email, the confirmation and the unsubscribe: about 12 s on a quiet machine.
    // Twice that, on a slower machine, stays within half of 60 s.
    test.setTimeout(60_000);
    const origin = new URL(baseURL ?? '').origin;
    const email = uniqueEmail('js');
    const requests = watchSignupRequests(page);

    // Hold the sign-up in the browser until the pending state has been seen, then let it go on
    // to the real server.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/signup', async (route) => {
      await released;
      await route.continue();
    });

    await page.goto('/');
    await waitForHydration(page);
    const f = signupForm(page);
    await fill(f, { name: 'Ada Lovelace', email, comment: 'Hold on tight.' });
    // Typing woke the form's island; from here on it sends JSON.
    await waitForIsland(page, 'signup');
    await page.evaluate(() => {
      (window as unknown as { __marker?: number }).__marker = 1;
    });
    await f.submit.click();

    const sending = f.form.getByRole('button', { name: 'Sending…', exact: true });
    await expect(sending).toBeVisible();
    await expect(sending).toBeDisabled();
    await expect(f.form).toHaveAttribute('aria-busy', 'true');
    const answered = page.waitForResponse((r) => r.request() === requests[0]);
    release();

    await expect(f.status).toHaveText(signupAnswers.success);
    expect((await answered).status()).toBe(200);
    await expect(f.form).toHaveAttribute('aria-busy', 'false');
    await expect(f.submit).toBeEnabled();
    // Same document: the marker set before submitting is still there.
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
    await expect(f.name).toHaveValue('');
    await expect(f.email).toHaveValue('');
    await expect(f.comment).toHaveValue('');

    expect(requests).toHaveLength(1);
    const [request] = requests;
    if (!request) throw new Error('no sign-up request');
    expect(new URL(request.url()).origin).toBe(origin);
    expect(request.method()).toBe('POST');
    const headers = await request.allHeaders();
    expect(headers['content-type']).toMatch(/^application\/json/);
    // The token header is the XSRF-TOKEN cookie /api/csrf set at idle time after load.
    const xsrf = (await context.cookies(origin)).find((c) => c.name === 'XSRF-TOKEN')?.value;
    expect(xsrf, 'the XSRF-TOKEN cookie').toBeTruthy();
    expect(headers['x-xsrf-token']).toBe(decodeURIComponent(xsrf ?? ''));
    expect(request.postDataJSON()).toMatchObject({ name: 'Ada Lovelace', email, comment: 'Hold on tight.' });
    await page.unroute('**/signup');

    const mail = await waitForMail(email);
    // Nothing the visitor typed is mailed to an address nobody has confirmed yet.
    expect(mail.text).not.toContain('Ada Lovelace');
    expect(new URL(mail.confirmUrl).origin).toBe(origin);
    expect(new URL(mail.unsubscribeUrl).searchParams.get('sig')).toBeTruthy();
    await openAndPress(page, mail.confirmUrl, confirmPage);
    await expectNotice(page, mail.confirmUrl, 404, 'This link does not work');
    await openAndPress(page, mail.unsubscribeUrl, unsubscribePage);
  });

  test("a mail scanner opening the links (GET and HEAD) changes nothing; the person's press still works", async ({
    page,
    request,
  }) => {
    // A sign-up and a scanner's GET and HEAD on each link before the press: about 10 s on a quiet machine.
    // Twice that, on a slower machine, stays within half of 60 s.
    test.setTimeout(60_000);
    const email = uniqueEmail('scanner');
    await page.goto('/');
    await waitForHydration(page);
    const f = signupForm(page);
    await fill(f, { name: 'Scanned', email, comment: '' });
    await f.submit.click();
    await expect(f.status).toHaveText(signupAnswers.success);
    const mail = await waitForMail(email);

    // What Safe Links and friends do: fetch every link in the message, more than once.
    for (const url of [mail.confirmUrl, mail.unsubscribeUrl]) {
      for (let i = 0; i < 2; i++) {
        expect((await request.head(url)).status()).toBe(200);
        expect((await request.get(url)).status()).toBe(200);
      }
    }
    // Still pending, and the link still unspent: the page offers the press, which confirms.
    await openAndPress(page, mail.confirmUrl, confirmPage);
    // Scanned again after confirming: still subscribed, so the unsubscribe page offers its button.
    expect((await request.get(mail.unsubscribeUrl)).status()).toBe(200);
    await openAndPress(page, mail.unsubscribeUrl, unsubscribePage);
    await expectNotice(page, mail.unsubscribeUrl, 200, unsubscribePage.done);
    await expect(page.getByRole('button', { name: unsubscribePage.button })).toHaveCount(0);
  });

  test('bad input: errors beside the fields, focus on the first, nothing sent', async ({ page }) => {
    const requests = watchSignupRequests(page);
    await page.goto('/');
    await waitForHydration(page);
    const f = signupForm(page);
    await fill(f, { name: '', email: 'not-an-email', comment: 'Still here?' });
    await waitForIsland(page, 'signup');
    await f.submit.click();

    await expectFieldError(f.name, nameError);
    await expectFieldError(f.email, emailError);
    await expect(f.comment).not.toHaveAttribute('aria-invalid', 'true');
    await expect(f.status).toHaveText(correctFields);
    await expect(f.name).toBeFocused();
    await expect(f.name).toHaveValue('');
    await expect(f.email).toHaveValue('not-an-email');
    await expect(f.comment).toHaveValue('Still here?');
    // Validation runs before any fetch, so had anything been sent it would have started by now.
    expect(requests.map((r) => r.url())).toEqual([]);
  });

  test('the same address twice (any case of domain): same answer, one email', async ({ page }) => {
    const email = uniqueEmail('twice');
    const [local, domain] = email.split('@') as [string, string];
    await page.goto('/');
    await waitForHydration(page);
    const f = signupForm(page);

    await fill(f, { name: 'Twice', email, comment: '' });
    await waitForIsland(page, 'signup');
    await f.submit.click();
    await expect(f.status).toHaveText(signupAnswers.success);
    await expect(f.email).toHaveValue('');

    await fill(f, { name: 'Twice Again', email: `${local}@${domain.toUpperCase()}`, comment: '' });
    const second = page.waitForResponse((r) => new URL(r.url()).pathname === '/signup');
    await f.submit.click();
    expect((await second).status()).toBe(200);
    await expect(f.status).toHaveText(signupAnswers.success);

    await waitForMail(email);
    // Nothing announces that an email will NOT be written, so sign a third address up after the
    // second: the outbox is sent in the order it was queued, so once the marker's email is
    // written, a second email to the first address would have been written before it.
    const marker = `marker-${local}@${domain}`;
    await fill(f, { name: 'Marker', email: marker, comment: '' });
    await f.submit.click();
    await expect(f.status).toHaveText(signupAnswers.success);
    await waitForMail(marker);
    expect((await mailsTo(email)).map((m) => m.file)).toHaveLength(1);
  });
});

/**
 * The cookies a visitor kept from before an APP_SECRET rotation: well-formed, but signed with a
 * key this server does not have (the browser tests run on http, so the names carry no __Host-).
 */
async function oldCookieJar(context: BrowserContext, baseURL: string | undefined): Promise<void> {
  const oldKey = randomBytes(32).toString('base64url');
  const url = new URL(baseURL ?? '').origin;
  await context.addCookies([
    { name: '_csrf', value: sign(randomBytes(18).toString('base64url'), oldKey), url },
    { name: 'XSRF-TOKEN', value: `${randomBytes(8).toString('hex')}-${randomBytes(20).toString('base64url')}`, url },
    { name: 'dh_t', value: sign(String(Date.now() - 60_000), oldKey), url },
  ]);
}

test.describe('after a key rotation', () => {
  test('with JavaScript, a visitor with old cookies signs up at the first press', async ({
    page,
    context,
    baseURL,
  }) => {
    await oldCookieJar(context, baseURL);
    const email = uniqueEmail('oldjar-js');
    await page.goto('/');
    await waitForHydration(page);
    const f = signupForm(page);
    await fill(f, { name: 'Old Jar', email, comment: '' });
    await f.submit.click();
    await expect(f.status).toHaveText(signupAnswers.success);
    await waitForMail(email);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('a visitor with old cookies is asked to press once more, like anyone new, and then signs up', async ({
      page,
      context,
      baseURL,
    }) => {
      await oldCookieJar(context, baseURL);
      const email = uniqueEmail('oldjar-nojs');
      await page.goto('/');
      let f = signupForm(page);
      await fill(f, { name: 'Old Jar', email, comment: '' });
      const first = page.waitForResponse((r) => new URL(r.url()).pathname === '/signup');
      await f.submit.click();
      expect((await first).status()).toBe(428);
      await page.waitForLoadState();
      f = signupForm(page);
      await expect(f.status).toHaveText(pleasePressAgain);
      const second = page.waitForResponse((r) => new URL(r.url()).pathname === '/signup');
      await f.submit.click();
      expect((await second).status()).toBe(200);
      await page.waitForLoadState();
      await expect(signupForm(page).status).toHaveText(signupAnswers.success);
      await waitForMail(email);
    });
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a plain post asks for one more press, then signs up; the email arrives', async ({ page }) => {
    // Two plain posts, each a whole page, then the email: about 10 s on a quiet machine.
    // Twice that, on a slower machine, stays within half of 60 s.
    test.setTimeout(60_000);
    const email = uniqueEmail('nojs');
    const values = { name: 'Grace Hopper', email, comment: 'No scripts, please.' };
    await page.goto('/');
    let f = signupForm(page);
    await fill(f, values);

    const first = page.waitForResponse((r) => new URL(r.url()).pathname === '/signup');
    await f.submit.click();
    expect((await first).status()).toBe(428);
    await page.waitForLoadState();
    f = signupForm(page);
    await expect(f.status).toHaveText(pleasePressAgain);
    await expect(f.name).toHaveValue(values.name);
    await expect(f.email).toHaveValue(values.email);
    await expect(f.comment).toHaveValue(values.comment);

    const second = page.waitForResponse((r) => new URL(r.url()).pathname === '/signup');
    await f.submit.click();
    expect((await second).status()).toBe(200);
    await page.waitForLoadState();
    await expect(signupForm(page).status).toHaveText(signupAnswers.success);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/signup');
    expect(['', '#stay-updated']).toContain(url.hash);

    // The links work without JavaScript too: the buttons are plain forms.
    const mail = await waitForMail(email);
    await openAndPress(page, mail.confirmUrl, confirmPage);
    await openAndPress(page, mail.unsubscribeUrl, unsubscribePage);
  });

  test('bad input: the page comes back with errors beside the fields and the values kept', async ({ page }) => {
    // Values the browser's own checks let through (a blank name, an address without a dot in its
    // domain), so it is the server that answers.
    const values = { name: ' ', email: 'a@b', comment: 'Kept?' };
    const expected = parseSignup(values);
    if (expected.ok) throw new Error('these values should not pass the schema');
    await page.goto('/');
    let f = signupForm(page);
    await fill(f, values);
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/signup');
    await f.submit.click();
    expect((await answer).status()).toBe(400);
    await page.waitForLoadState();

    f = signupForm(page);
    await expect(f.status).toHaveText(correctFields);
    await expectFieldError(f.name, wordsFor(expected.errors.name));
    await expectFieldError(f.email, wordsFor(expected.errors.email));
    await expect(f.name).toHaveValue(values.name);
    await expect(f.email).toHaveValue(values.email);
    await expect(f.comment).toHaveValue(values.comment);
  });
});

test.describe('accessibility', () => {
  // Still clouds, as in accessibility.spec.ts: axe's contrast check sees the same backdrop each run.
  test.use({ reducedMotion: 'reduce' });

  test('axe finds no violations with field errors, after a success, and on the link pages', async ({ page }) => {
    // Four whole-page axe passes: about 25 s on a quiet two-core machine, before and after
    // decision 0059 alike, so the default 30 s left no room for CI's second worker.
    test.slow();
    await page.goto('/');
    await waitForHydration(page);
    const f = signupForm(page);
    await fill(f, { name: '', email: 'not-an-email', comment: '' });
    await waitForIsland(page, 'signup');
    await f.submit.click();
    await expectFieldError(f.email, emailError);
    expect(await axeViolations(page)).toEqual([]);

    const email = uniqueEmail('axe');
    await fill(f, { name: 'Axe', email, comment: '' });
    await f.submit.click();
    await expect(f.status).toHaveText(signupAnswers.success);
    expect(await axeViolations(page)).toEqual([]);

    const mail = await waitForMail(email);
    await expectNotice(page, mail.confirmUrl, 200, confirmPage.title);
    expect(await axeViolations(page)).toEqual([]);
    await openAndPress(page, mail.confirmUrl, confirmPage);
    expect(await axeViolations(page)).toEqual([]);
    await expectNotice(page, mail.confirmUrl, 404, 'This link does not work');
    expect(await axeViolations(page)).toEqual([]);
    await expectNotice(page, mail.unsubscribeUrl, 200, unsubscribePage.title);
    expect(await axeViolations(page)).toEqual([]);
    await openAndPress(page, mail.unsubscribeUrl, unsubscribePage);
    expect(await axeViolations(page)).toEqual([]);
  });
});
