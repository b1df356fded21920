// The launch broadcast in a real Chromium against the real server: compose, preview, the address
// guard, a second operator's approval (voided by an edit, given again), send to confirmed
// subscribers, the emails in the outbox, pause and resume.
import { expect, test } from '@playwright/test';
import { insertSubscriber } from '../src/server/test/fixtures.ts';
import { withServerStore } from './e2e-target.ts';
import { axeViolations, newOperator, ownAddress, signIn } from './admin-support.ts';
import { mailsWithSubject, uniqueEmail } from './outbox.ts';

const OTHER_ADDRESS = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

/** Confirmed subscribers written straight into the running server's database. */
async function confirmedSubscribers(count: number, label: string): Promise<string[]> {
  return withServerStore(async (store) => {
    const emails: string[] = [];
    for (let i = 0; i < count; i++) {
      const email = uniqueEmail(`${label}${i}`);
      await insertSubscriber(store.db, email, { status: 'confirmed' });
      emails.push(email);
    }
    return emails;
  });
}

test('compose → preview → address guard → a second operator approves → send → the emails arrive with unsubscribe links → pause and resume', async ({
  page,
  browser,
}) => {
  // Sending is paced (MAIL_RATE_PER_SEC in playwright.config.ts), so the whole send takes seconds.
  test.setTimeout(120_000);
  await ownAddress(page);
  const recipients = await confirmedSubscribers(24, 'bc');
  const op = await newOperator('broadcast');
  await signIn(page, op);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Broadcast' }).click();
  await expect(page.getByRole('heading', { name: 'Broadcast', level: 1 })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  const subject = `Launch news ${Date.now()}`;
  await page.getByLabel('Subject').fill(subject);
  // The guard: any 0x address while the content file sets none, even split by Markdown.
  await page
    .getByLabel('Message (Markdown)')
    .fill(`Send ETH to ${OTHER_ADDRESS.slice(0, 20)}**${OTHER_ADDRESS.slice(20)}** now!`);
  await page.getByRole('button', { name: 'Save and preview' }).click();
  const refusal = page.locator('#bc-body-error');
  await expect(refusal).toContainText('contains an Ethereum address');
  await expect(refusal).toContainText('no official contract address is set');
  await expect(page.getByLabel('Message (Markdown)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Send to all confirmed subscribers' })).toBeDisabled();
  expect(await axeViolations(page)).toEqual([]);

  // Several reasons (decision 0027): an invisible character and a foreign link read one per line.
  await page
    .getByLabel('Message (Markdown)')
    .fill('Hello\u2063 holders. [Buy on the official dapp](https://any-phishing.example)');
  await page.getByRole('button', { name: 'Save and preview' }).click();
  await expect(refusal).toContainText('This broadcast cannot go out, for 2 reasons:');
  expect((await refusal.innerText()).split('\n')).toEqual([
    'This broadcast cannot go out, for 2 reasons:',
    '1. The message contains an invisible character (U+2063 INVISIBLE SEPARATOR) after “Hello”; remove it.',
    expect.stringMatching(/^2\. The link “Buy on the official dapp” goes to any-phishing\.example/),
  ]);
  await expect(page.getByRole('button', { name: 'Send to all confirmed subscribers' })).toBeDisabled();

  await page
    .getByLabel('Message (Markdown)')
    .fill('# The presale\n\nHello **holders**, it opens soon. <b>not bold</b>');
  await page.getByRole('button', { name: 'Save and preview' }).click();
  await expect(refusal).toHaveCount(0);
  await expect(page.getByTestId('text-preview')).toContainText('Hello holders, it opens soon. <b>not bold</b>');
  const frame = page.frameLocator('iframe[title="HTML preview"]');
  await expect(frame.locator('strong')).toHaveText('holders');
  await expect(frame.locator('b')).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Send a test to me' }).click();
  await expect(page.getByText(`A test was sent to ${op.email}.`)).toBeVisible();
  await expect.poll(async () => (await mailsWithSubject(`[Test] ${subject}`)).map((m) => m.to[0])).toEqual([op.email]);

  // Four eyes: the author cannot approve their own text, nor send it unapproved.
  const sendButton = page.getByRole('button', { name: 'Send to all confirmed subscribers' });
  await expect(page.getByTestId('bc-approval-state')).toContainText('Not approved yet: a second operator');
  await expect(page.getByRole('button', { name: 'Approve this text' })).toHaveCount(0);
  await expect(sendButton).toBeDisabled();

  // A second operator, in a browser of their own, opens the draft and approves it.
  const checkerContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const checkerPage = await checkerContext.newPage();
  await ownAddress(checkerPage);
  const checker = await newOperator('checker', 'sender');
  await signIn(checkerPage, checker);
  await checkerPage.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Broadcast' }).click();
  await expect(checkerPage.getByLabel('Subject')).toHaveValue(subject);
  await expect(checkerPage.getByTestId('bc-approval')).toContainText(`Written by ${op.email}`);
  await checkerPage.getByRole('button', { name: 'Approve this text' }).click();
  await expect(checkerPage.getByTestId('bc-approval-state')).toContainText(`Approved by ${checker.email}`);
  expect(await axeViolations(checkerPage)).toEqual([]);

  // The author's screen follows; an edit voids the approval, and both screens say whose edit.
  await expect(page.getByTestId('bc-approval-state')).toContainText(`Approved by ${checker.email}`);
  await expect(sendButton).toBeEnabled();
  await page
    .getByLabel('Message (Markdown)')
    .fill('# The presale\n\nHello **holders**, it opens very soon. <b>not bold</b>');
  await expect(sendButton).toBeDisabled();
  await page.getByRole('button', { name: 'Save and preview' }).click();
  await expect(page.getByTestId('bc-approval-lapsed')).toContainText(`Approved by ${checker.email}`);
  await expect(page.getByTestId('bc-approval-lapsed')).toContainText(`voided by ${op.email}’s edit`);
  await expect(checkerPage.getByTestId('bc-approval-lapsed')).toContainText(`voided by ${op.email}’s edit`);
  await expect(checkerPage.getByLabel('Message (Markdown)')).toHaveValue(/it opens very soon/);
  await expect(sendButton).toBeDisabled();
  await checkerPage.getByRole('button', { name: 'Approve this text' }).click();
  await expect(checkerPage.getByTestId('bc-approval-state')).toContainText(`Approved by ${checker.email}`);
  await checkerContext.close();
  await expect(page.getByTestId('bc-approval-state')).toContainText(`Approved by ${checker.email}`);

  // Signed in moments ago: the code from signing in is fresh, so no prompt.
  await sendButton.click();
  await expect(page.getByTestId('bc-state')).toHaveText('Sending');
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('bc-state')).toHaveText('Paused');
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('bc-state')).toHaveText(/Sending|Sent/);
  await expect(page.getByTestId('bc-state')).toHaveText('Sent', { timeout: 60_000 });

  const mails = await mailsWithSubject(subject);
  const to = new Set(mails.flatMap((m) => m.to));
  for (const r of recipients) expect(to.has(r), r).toBe(true);
  expect(mails.length).toBe(to.size); // nobody twice
  for (const m of mails) {
    // The approved text, the one edited and approved again.
    expect(m.text).toContain('Hello holders, it opens very soon.');
    expect(m.listUnsubscribe).toContain(m.unsubscribeUrl);
    expect(m.listUnsubscribePost).toContain('List-Unsubscribe=One-Click');
  }
  // Each link is a working unsubscribe page for its own subscriber.
  const first = mails.find((m) => m.to[0] === recipients[0]);
  await page.goto(first?.unsubscribeUrl ?? '');
  await expect(page.getByRole('button', { name: /unsubscribe/i })).toBeVisible();
});
