// Invite links end to end in a real Chromium against the real server (issue 33), on SQLite and on
// PostgreSQL (named admin-* so the PostgreSQL project runs it too): A confirms and copies their
// link; B signs up through it with JavaScript, B2 without, both confirm: A's page shows 2. C never
// confirms; D comes from A's own network, E is A's address with a +tag, F uses a disposable
// domain: still 2, each refusal on record with its reason. A farm of one Gmail mailbox in six
// spellings from six networks adds one. The network cap holds at its default
// (three a day); both caps have their server test too (features/referrals/referrals-flow.test.ts).
// A, B and B2 are people in a browser, since what they see is the test; the others join over HTTP
// as the form posts (visitor-requests.ts), which costs milliseconds where a browser costs seconds.
// docs/decisions/0060-referral-invites.md
import { randomInt } from 'node:crypto';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { referralsMessages as arabicWords } from '../content/messages/ar/referrals.ts';
import { linkPageMessages } from '../content/messages/en/link-pages.ts';
import { referralsMessages as words } from '../content/messages/en/referrals.ts';
import { signupAnswers } from '../content/messages/en/signup.ts';
import type { ReferralStatus } from '../src/server/store/schema.ts';
import { maskEmail } from '../src/shared/admin/subscribers.ts';
import { axeViolations, newOperator, ownAddress, signIn } from './admin-support.ts';
import { withServerStore } from './e2e-target.ts';
import { uniqueEmail, waitForMail } from './outbox.ts';
import { waitForIsland } from './support.ts';
import { inviteLinksIn, joinOverHttp, signUpOverHttp } from './visitor-requests.ts';

// The server trusts X-Forwarded-For (TRUST_PROXY=true): each person's context is a network of its
// own, in a block drawn per run so that reruns and other files' people never share one.
const block = `198.18.${randomInt(0, 256)}`;
const network = (n: number) => `${block}.${n}`;

async function personAt(browser: Browser, ip: string, js = true): Promise<BrowserContext> {
  return browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': ip },
    javaScriptEnabled: js,
    ...(js ? { permissions: ['clipboard-read', 'clipboard-write'] } : {}),
  });
}

/** Signs up on the page at `url` (the home page, or a friend's invite link), with or without script. */
async function signUp(page: Page, url: string, email: string, js: boolean): Promise<void> {
  await page.goto(url);
  const form = page.locator('form.signup-form');
  // The form's island wakes as it nears the screen.
  await form.scrollIntoViewIfNeeded();
  if (js) await waitForIsland(page, 'signup');
  await form.getByLabel('Name', { exact: true }).fill('Friend');
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByRole('button', { name: 'Submit', exact: true }).click();
  if (!js) {
    // Without script and cookies the server asks for one more press (the page keeps the fields).
    await expect(page.locator('form.signup-form').getByRole('status')).toContainText('please press Submit once more');
    await page.locator('form.signup-form').getByRole('button', { name: 'Submit', exact: true }).click();
  }
  await expect(page.locator('form.signup-form').getByRole('status')).toHaveText(signupAnswers.success);
}

/** Opens the confirmation email's link and presses its button: the confirmed page. */
async function confirm(page: Page, email: string): Promise<void> {
  const mail = await waitForMail(email);
  await page.goto(mail.confirmUrl);
  await page.getByRole('button', { name: linkPageMessages.confirmPending.button, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(linkPageMessages.confirmed.title);
}

const countOn = (page: Page) => page.locator('.invite-count');

/** The invite's status the server decided for `email`, read from its database. */
const statusOf = (email: string): Promise<ReferralStatus | null> =>
  withServerStore(async (store) => {
    const row = await store.db
      .selectFrom('referral_attributions as a')
      .innerJoin('subscribers as s', 's.id', 'a.invited_id')
      .select('a.status')
      .where('s.email_key', '=', email.toLowerCase())
      .executeTakeFirst();
    return row?.status ?? null;
  });

/**
 * The scenario, in the browser: A and their link, two counted friends (script on and off),
 * one who never confirms and three refused. Returns A's address and invite page, for the console's
 * part of this test to look up.
 */
async function inviteScenario(browser: Browser): Promise<{ referrer: string; invitePage: string }> {
  const contexts: BrowserContext[] = [];
  const person = async (ip: string, js = true) => {
    const context = await personAt(browser, ip, js);
    contexts.push(context);
    return context.newPage();
  };
  try {
    const referrer = uniqueEmail('ref-a');
    const a = await person(network(1));
    await signUp(a, '/', referrer, true);
    await confirm(a, referrer);
    const link = a.locator('#invite-link');
    const url = await link.inputValue();
    expect(url).toMatch(/\/\?invite=[A-Za-z0-9_-]{22}$/);
    await expect(countOn(a)).toHaveText(words.count({ count: 0 }));
    // The copy button puts the link on the clipboard.
    await a.getByRole('button', { name: words.copy }).click();
    await expect(a.getByRole('button', { name: words.copied })).toBeVisible();
    expect(await a.evaluate(() => navigator.clipboard.readText())).toBe(url);
    const invitePage = (await a.getByRole('link', { name: words.pageLink }).getAttribute('href')) ?? '';
    expect(invitePage).toMatch(/\/invite\?id=.+&sig=/);

    // B, with JavaScript: the page as usual, one line more, and the form carries the code.
    const bEmail = uniqueEmail('ref-b');
    const b = await person(network(2));
    await b.goto(url);
    await expect(b.getByText(words.invitedLine)).toBeVisible();
    await signUp(b, url, bEmail, true);
    await confirm(b, bEmail);
    // B2, without JavaScript.
    const b2Email = uniqueEmail('ref-b2');
    const b2 = await person(network(3), false);
    await b2.goto(url);
    await expect(b2.getByText(words.invitedLine)).toBeVisible();
    await expect(b2.locator('form.signup-form input[name="invite"]')).toHaveValue(
      new URL(url).searchParams.get('invite') ?? '',
    );
    await signUp(b2, url, b2Email, false);
    await confirm(b2, b2Email);

    // A opens their invite page (a signed link: no cookie needed).
    const own = a;
    await own.goto(invitePage);
    await expect(own.getByRole('heading', { level: 1 })).toHaveText(words.page.title);
    await expect(countOn(own)).toHaveText(words.count({ count: 2 }));
    expect(await axeViolations(own)).toEqual([]);
    // The same page in Arabic reads right to left.
    await own.goto(invitePage.replace('/invite?', '/ar/invite?'));
    await expect(own.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(own.getByRole('heading', { level: 1 })).toHaveText(arabicWords.page.title);
    await expect(countOn(own)).toHaveText(arabicWords.count({ count: 2 }));

    // C signs up and never confirms; D from A's own network; E is A's mailbox with a +tag; F's
    // domain is disposable (mailinator.com is on the package's list). Nothing here is about what
    // they see, so they sign up over HTTP, as the form posts, not in a browser each.
    const code = new URL(url).searchParams.get('invite') ?? '';
    const cEmail = uniqueEmail('ref-c');
    await signUpOverHttp({ email: cEmail, ip: network(4), invite: code });
    const dEmail = uniqueEmail('ref-d');
    const eEmail = referrer.replace('@', '+friends@');
    const fEmail = uniqueEmail('ref-f').replace('@example.com', '@mailinator.com');
    for (const [email, ip] of [
      [dEmail, network(1)],
      [eEmail, network(5)],
      [fEmail, network(6)],
    ] as const)
      await joinOverHttp({ email, ip, invite: code });
    // A farm: one Gmail mailbox in six spellings (dots, +tags, capitals, googlemail.com), each from
    // a network of its own, all confirmed. Gmail delivers them all to one person, so one counts.
    const box = `farm${randomInt(1e6, 1e7)}`;
    const farm = [
      `${box}@gmail.com`,
      `${box.slice(0, 2)}.${box.slice(2)}@gmail.com`,
      `${box}+presale@gmail.com`,
      `${box.toUpperCase()}+dh@gmail.com`,
      `${box}@googlemail.com`,
      `${box[0]}.${box.slice(1)}+x@googlemail.com`,
    ];
    for (const [i, email] of farm.entries()) await joinOverHttp({ email, ip: network(7 + i), invite: code });
    expect((await Promise.all(farm.map(statusOf))).toSorted()).toEqual(['counted', ...Array(5).fill('same_mailbox')]);
    await own.goto(invitePage);
    await expect(countOn(own)).toHaveText(words.count({ count: 3 }));
    expect(await statusOf(bEmail)).toBe('counted');
    expect(await statusOf(b2Email)).toBe('counted');
    expect(await statusOf(cEmail)).toBe('pending');
    expect(await statusOf(dEmail)).toBe('same_network');
    expect(await statusOf(eEmail)).toBe('same_mailbox');
    expect(await statusOf(fEmail)).toBe('disposable');
    // Counts only: the invite page names none of them.
    for (const email of [bEmail, b2Email, cEmail, dEmail, fEmail]) await expect(own.getByText(email)).toHaveCount(0);
    return { referrer, invitePage };
  } finally {
    for (const context of contexts) await context.close();
  }
}

test('invite links: two friends count (script on and off), and a farm of one mailbox in six spellings once; unconfirmed, same network, same mailbox and disposable do not, and the console says why', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const { referrer } = await inviteScenario(browser);

  // The team's side: A among the top referrers, masked, with three counted (B, B2 and the farm's
  // one), one pending and eight not counted (D, E, F and the farm's other five); opened (audited, as a subscriber's record is), each refusal with its reason.
  await ownAddress(page);
  await signIn(page, await newOperator('ref-scenario', 'sender'));
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Referrals' }).click();
  const rows = page
    .getByRole('table', { name: /Top referrers/ })
    .getByRole('row')
    .filter({ hasText: maskEmail(referrer) })
    .filter({ has: page.locator('td[data-label="Confirmed"]', { hasText: /^3$/ }) })
    .filter({ has: page.locator('td[data-label="Pending"]', { hasText: /^1$/ }) })
    .filter({ has: page.locator('td[data-label="Not counted"]', { hasText: /^8$/ }) });
  await expect(rows.first()).toBeVisible();
  await expect(page.getByText(referrer)).toHaveCount(0);
  await rows.first().getByRole('button', { name: /Open/ }).click();
  const panel = page.getByRole('complementary', { name: referrer });
  await expect(panel).toBeVisible();
  for (const reason of ['Same network as the referrer', 'The referrer’s own mailbox', 'Disposable address'])
    await expect(panel.getByText(`Not counted: ${reason}`)).toBeVisible();
});

test('the cap holds: a fourth confirmed friend from one network in a day is not counted', async ({ page }) => {
  // The cap is decided on the server (its race test is in features/referrals); here the people
  // join over HTTP and the browser shows what the referrer sees: their invite page says 3.
  const referrer = uniqueEmail('ref-cap');
  const { code, invitePage } = inviteLinksIn(await joinOverHttp({ email: referrer, ip: network(20) }));
  // REFERRALS_PER_NETWORK_DAILY keeps its default, 3: four friends from one network.
  const friends = [1, 2, 3, 4].map((n) => uniqueEmail(`ref-cap-${n}`));
  for (const email of friends) await joinOverHttp({ email, ip: network(21), invite: code });
  expect(await Promise.all(friends.map(statusOf))).toEqual(['counted', 'counted', 'counted', 'capped']);
  await page.goto(invitePage);
  await expect(countOn(page)).toHaveText(words.count({ count: 3 }));
});

test('the home page stays cacheable and cookie-free without a code; with one it is private', async ({ request }) => {
  const plain = await request.get('/');
  expect(plain.headers()['cache-control']).toBe('no-cache');
  expect(plain.headers().etag).toBeTruthy();
  expect(plain.headers()['set-cookie']).toBeUndefined();
  const invited = await request.get(`/?invite=${'A'.repeat(22)}`);
  expect(invited.headers()['cache-control']).toBe('private, no-store');
  expect(invited.headers()['set-cookie']).toBeUndefined();
  const mangled = await request.get('/?invite=nonsense');
  expect(mangled.headers().etag).toBe(plain.headers().etag);
});

test('a forged invite page link is refused in words', async ({ page }) => {
  const response = await page.goto('/invite?id=someone&sig=forged');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.brokenLink.title);
});
