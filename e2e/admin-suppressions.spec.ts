// The console's Suppressions view in a real Chromium against the real server: a sender reads the
// list (no address in it); an owner lifts an entry after saying yes in words and giving a code.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { Suppressions } from '../src/server/features/mail/suppression.ts';
import { axeViolations, confirmWithCode, newOperator, ownAddress, signIn } from './admin-support.ts';
import { e2eSecrets, withServerStore } from './e2e-target.ts';

test.beforeEach(async ({ page }) => {
  await ownAddress(page);
});

test('a sender sees a seeded suppression without its address; an owner lifts it through a confirmation and a fresh code', async ({
  page,
}) => {
  // Entries carry no address: a detail of its own tells this test's row from the others'.
  const tag = randomBytes(4).toString('hex');
  const address = `bounced-${tag}@example.com`;
  await withServerStore((store) =>
    new Suppressions(e2eSecrets()).suppress(store.db, {
      address,
      reason: 'hard-bounce',
      source: 'smtp',
      detail: `5.1.1 ${tag}`,
      now: new Date(),
    }),
  );

  const sender = await newOperator('supp-sender', 'sender');
  await signIn(page, sender);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Suppressions' }).click();
  await expect(page.getByRole('heading', { name: 'Suppressions' })).toBeVisible();
  const table = page.getByRole('table', { name: /Suppressed addresses/ });
  const row = table.getByRole('row').filter({ hasText: tag });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('The address does not exist (hard bounce)');
  await expect(row).toContainText('smtp');
  await expect(page.getByText(address)).toHaveCount(0);
  // Lifting is the owner's: a sender is not offered it.
  await expect(row.getByRole('button', { name: /Lift/ })).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);

  // At 320 px the table still fits (its rows stack) and nothing scrolls sideways.
  await page.setViewportSize({ width: 320, height: 640 });
  await expect(row).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

  // An owner signed in with a recovery code has no fresh proof: the lift asks for a code.
  await page.context().clearCookies();
  const owner = await newOperator('supp-owner', 'owner');
  await signIn(page, owner, 'recovery');
  await page.goto('/admin/suppressions');
  const ownersRow = page
    .getByRole('table', { name: /Suppressed addresses/ })
    .getByRole('row')
    .filter({ hasText: tag });
  await ownersRow.getByRole('button', { name: /Lift/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Lift this suppression?' });
  await expect(confirm).toContainText('this address can be mailed again');
  await confirm.getByRole('button', { name: 'Lift the suppression' }).click();
  await confirmWithCode(page, owner);
  await expect(page.getByRole('status').filter({ hasText: 'Lifted: this address may be mailed again.' })).toBeVisible();
  await expect(ownersRow).toContainText(`by ${owner.email}`);
  await expect(ownersRow.getByRole('button', { name: /Lift/ })).toHaveCount(0);
  expect(await withServerStore((store) => new Suppressions(e2eSecrets()).isSuppressed(store.db, address))).toBe(false);
});
