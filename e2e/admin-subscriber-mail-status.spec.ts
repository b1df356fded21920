// A person's record in the console says whether mail reaches them (a real Chromium against the real
// server): an address suppressed by a bounce reads "Suppressed since …", why and heard from where,
// with the last bounce, and its resend is not offered.
import { expect, test } from '@playwright/test';
import { Suppressions } from '../src/server/features/mail/suppression.ts';
import { axeViolations, newOperator, ownAddress, signIn } from './admin-support.ts';
import { e2eSecrets, withServerStore } from './e2e-target.ts';
import { seedSubscribers, uniqueTag } from './subscriber-seed.ts';

test.beforeEach(async ({ page }) => {
  await ownAddress(page);
});

test('the record of a person whose address bounced shows it suppressed since then, why, from where, and offers no resend', async ({
  page,
}) => {
  const tag = uniqueTag('gone');
  const email = `gone.${tag}@example.com`;
  await seedSubscribers([{ name: 'Gone Fan', email }]);
  await withServerStore((store) =>
    new Suppressions(e2eSecrets()).record(store.db, {
      source: 'dsn',
      eventId: `dsn-${tag}`,
      kind: 'hard',
      address: email,
      detail: '5.1.1',
      now: new Date(),
    }),
  );

  const op = await newOperator('mail-status', 'sender');
  await signIn(page, op);
  await page.getByLabel('Search by name or address').fill(email);
  await page.getByRole('button', { name: 'Search' }).click();
  const details = page.getByRole('button', { name: /^Show the details of g•••@example\.com/ });
  await expect(details).toHaveCount(1);
  await details.click();

  const panel = page.getByRole('complementary', { name: 'Gone Fan' });
  await expect(panel.getByRole('heading', { name: 'Mail status' })).toBeVisible();
  const mail = panel.getByTestId('subscriber-mail');
  await expect(mail).toContainText(
    /Suppressed since .*: The address does not exist \(hard bounce\), reported as 5\.1\.1/,
  );
  await expect(mail).toContainText('heard from a bounce report in the bounce mailbox');
  await expect(mail).toContainText(/a hard bounce \(the address does not exist\), .*, heard from a bounce report/);
  await expect(panel.getByRole('button', { name: 'Resend confirmation' })).toBeDisabled();
  await expect(panel.getByText(/Mail to this address is suppressed .*a confirmation would not be sent/)).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});
