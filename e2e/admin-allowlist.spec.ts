// The console's Allowlist view in a real Chromium against the real server: a sender reads the list
// and asks for a freeze; a second sender approves it (the four eyes of a broadcast), and the root
// for the sale contract is shown, with the terms each entry accepted. Decisions 0045 and 0068.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { Address } from 'ox';
import { axeViolations, newOperator, ownAddress, signIn } from './admin-support.ts';
import { siteContent } from '../content/site-content.ts';
import { withServerStore } from './e2e-target.ts';

test('one sender asks to freeze, another approves, and the root is shown', async ({ browser, page }) => {
  await ownAddress(page);
  const addresses = Array.from({ length: 3 }, () => Address.checksum(`0x${randomBytes(20).toString('hex')}`));
  await withServerStore((store) =>
    store.db
      .insertInto('allowlist_entries')
      .values(addresses.map((address) => ({ address, joined_at: new Date().toISOString(), country: 'PT' })))
      .execute(),
  );

  const asker = await newOperator('allow-ask', 'sender');
  await signIn(page, asker);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Allowlist' }).click();
  await expect(page.getByRole('heading', { name: 'Allowlist', level: 1 })).toBeVisible();
  const entries = page.getByRole('table', { name: /Allowlist entries/ });
  for (const address of addresses) await expect(entries.getByRole('row').filter({ hasText: address })).toHaveCount(1);
  // Written without a terms version, as entries from before any terms are (decision 0068).
  await expect(entries.getByRole('row').filter({ hasText: addresses[0] ?? '-' })).toContainText('Before any terms');
  await expect(page.getByText(`Live presale terms: version ${siteContent.presaleTerms.version}`)).toBeVisible();
  await expect(page.getByLabel('Leave out entries that accepted no terms or an older version')).not.toBeChecked();
  await page
    .getByRole('search')
    .getByLabel('Address contains')
    .fill(addresses[0]?.slice(2, 14) ?? '');
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await expect(entries.getByRole('row')).toHaveCount(2); // the header and the one match
  await page.getByRole('button', { name: 'Ask to freeze a snapshot' }).click();
  await expect(page.getByText('Freeze requested: a second operator approves it')).toBeVisible();
  // The one who asked is not offered the approval.
  await expect(page.getByRole('button', { name: 'Approve the freeze' })).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);

  const second = await browser.newPage();
  await ownAddress(second);
  const approver = await newOperator('allow-approve', 'sender');
  await signIn(second, approver);
  await second.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Allowlist' }).click();
  await second.getByRole('button', { name: 'Approve the freeze' }).click();
  const frozen = second.getByText(
    /^Frozen: \d+ addresses, root 0x[0-9a-f]{64}\. Put this root into the sale contract\.$/,
  );
  await expect(frozen).toBeVisible();
  const root = /root (0x[0-9a-f]{64})/.exec((await frozen.textContent()) ?? '')?.[1] ?? '';
  await expect(second.getByRole('listitem').filter({ hasText: root })).toContainText(
    `asked by ${asker.email}, approved by ${approver.email}`,
  );
  await expect(second.getByRole('listitem').filter({ hasText: root })).toContainText('every entry');
  await second.close();
});
