// The console's Subscribers and Audience screens in a real Chromium against the real server.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, confirmWithCode, newOperator, ownAddress, signIn } from './admin-support.ts';
import { seedSubscribers, uniqueTag } from './subscriber-seed.ts';
import { watchCsp } from './support.ts';

test.beforeEach(async ({ page }) => {
  await ownAddress(page);
});

const XSS = '<img src=x onerror=alert(1)>';

async function search(page: Page, term: string, status = 'Any status') {
  await page.getByLabel('Search by name or address').fill(term);
  await page.getByLabel('Status').selectOption({ label: status });
  await page.getByRole('button', { name: 'Search' }).click();
}

/**
 * Opens the one row a search found. Masked addresses are not unique (`e•••@example.com` stands for
 * every e-address there), so wait until the search has narrowed the list to one row before
 * pressing: until its answer arrives, the list still shows every test's people.
 */
async function openOnlyRow(page: Page, masked: RegExp) {
  const details = page.getByRole('button', { name: masked });
  await expect(details).toHaveCount(1);
  await details.click();
}

test('searches, filters and pages a masked list, shows a person on purpose; a hostile name stays text; resends a confirmation', async ({
  page,
}) => {
  // Search, filters, paging, a record and a resend, each a round trip: about 8 s on a quiet machine.
  // Twice that, on a slower machine, stays within half of 60 s.
  test.setTimeout(60_000);
  const tag = uniqueTag('find');
  await seedSubscribers([
    { name: 'Ada Lovelace', email: `ada.${tag}@example.com`, status: 'confirmed' },
    { name: XSS, email: `mallory.${tag}@example.net`, comment: `<script>alert(2)</script>` },
    { name: 'Grace Hopper', email: `grace.${tag}@example.org` },
  ]);
  let alerted = false;
  page.on('dialog', (d) => {
    alerted = true;
    void d.dismiss();
  });
  const op = await newOperator('subs');
  await signIn(page, op);
  await expect(page.getByRole('heading', { name: 'Subscribers' })).toBeVisible();
  await expect(page.getByText(/3 characters or more find that text anywhere/)).toBeVisible();

  await search(page, tag);
  const rows = page.getByRole('table', { name: /Subscribers/ }).getByRole('row');
  await expect(rows).toHaveCount(4);
  // Masked: the first character and the domain; no name in the list (decision 0029).
  await expect(rows.nth(1)).toContainText('g•••@example.org');
  await expect(page.getByRole('table', { name: /Subscribers/ })).not.toContainText(`grace.${tag}`);
  await expect(page.getByRole('table', { name: /Subscribers/ })).not.toContainText('Grace Hopper');
  await page.getByLabel('Order').selectOption({ label: 'Oldest first' });
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rows.nth(1)).toContainText('a•••@example.com');
  await search(page, tag, 'Confirmed');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('a•••@example.com');
  expect(await axeViolations(page)).toEqual([]);

  await search(page, `mallory.${tag}@example.net`);
  await openOnlyRow(page, /^Show the details of m•••@example\.net/);
  const panel = page.getByRole('complementary', { name: XSS });
  await expect(panel.getByRole('heading', { name: XSS, exact: true })).toBeVisible();
  await expect(panel.getByText('<script>alert(2)</script>')).toBeVisible();
  await expect(panel.getByText('Berlin, Land Berlin, DE')).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Consent' })).toBeVisible();
  await expect(panel.locator('dl').getByText(`mallory.${tag}@example.net`)).toBeVisible();
  await expect(panel.getByText(/Opening this record was written in the audit log/)).toBeVisible();
  expect(await page.locator('main img').count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);

  await panel.getByRole('button', { name: 'Resend confirmation' }).click();
  await expect(panel.getByText('A new confirmation email is on its way.')).toBeVisible();
  await expect(panel.getByRole('cell', { name: 'confirmation' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Resend confirmation' })).toBeDisabled();
  expect(alerted).toBe(false);
});

test('erases a person after the typed address and the fresh-proof prompt; the audit log says so', async ({ page }) => {
  const tag = uniqueTag('erase');
  const email = `erin.${tag}@example.com`;
  await seedSubscribers([{ name: 'Erin Erased', email }]);
  const op = await newOperator('erase');
  // A recovery code signs in without fresh proof, so the console must ask for a code.
  await signIn(page, op, 'recovery');
  await search(page, tag);
  await openOnlyRow(page, /^Show the details of e•••@example\.com/);
  await page.getByRole('button', { name: 'Erase…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Erase this person?' });
  await expect(dialog).toBeVisible();
  const erase = dialog.getByRole('button', { name: 'Erase for good' });
  await expect(erase).toBeDisabled();
  await dialog.getByLabel('Their email address').fill('someone.else@example.com');
  await expect(erase).toBeDisabled();
  await dialog.getByLabel('Their email address').fill(email.toUpperCase());
  await erase.click();
  await confirmWithCode(page, op);
  await expect(page.getByText(/^Erased: their details and queued emails are gone from the list/)).toBeVisible();
  await expect(page.getByText(/Outside this app’s reach: what your mail provider logged/)).toBeVisible();
  await expect(page.getByText(email)).toHaveCount(0);
  await search(page, tag);
  await expect(page.getByText('Nobody matches this search.')).toBeVisible();

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('cell', { name: 'Person erased' }).first()).toBeVisible();
});

test('downloads the CSV after fresh proof: BOM, header row, formulas prefixed', async ({ page }) => {
  const tag = uniqueTag('csv');
  await seedSubscribers([
    { name: '=SUM(A1:A9)', email: `formula.${tag}@example.com` },
    { name: 'Plain Name', email: `plain.${tag}@example.com`, comment: '+1 wen' },
  ]);
  const op = await newOperator('csv');
  await signIn(page, op, 'recovery');
  await search(page, tag);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  await confirmWithCode(page, op);
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^subscribers-[\d-]+\.csv$/);
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).split('\r\n').filter(Boolean);
  expect(lines[0]).toMatch(/^"email","name","status",/i);
  expect(lines).toHaveLength(3);
  expect(lines.join('\n')).toContain(`"formula.${tag}@example.com","'=SUM(A1:A9)",`);
  expect(lines.join('\n')).toContain(`"'+1 wen"`);
  await expect(page.getByText(/^Downloaded subscribers-/)).toBeVisible();
});

test('shows the audience: totals, the per-day chart with its table, presets, a custom range, the credits', async ({
  page,
}) => {
  const cspViolations = await watchCsp(page);
  const op = await newOperator('audience');
  await signIn(page, op);
  await page.getByRole('link', { name: 'Audience' }).click();
  await expect(page.getByRole('heading', { name: 'Audience' })).toBeVisible();
  await expect(page.getByText(/visitors? in the last 30 minutes/)).toBeVisible();
  const totals = page.getByRole('list', { name: 'Totals' });
  for (const label of ['Visitors', 'Page views', 'Sign-ups', 'Conversion'])
    await expect(totals.getByText(label, { exact: true })).toBeVisible();
  const chart = page.getByRole('img', { name: /Visitors and sign-ups per day/ });
  await expect(chart).toBeVisible();
  // uPlot draws on a canvas as wide as its box; a narrower window redraws it narrower.
  const canvas = chart.locator('canvas');
  const drawn = () =>
    canvas.evaluate((c: HTMLCanvasElement) => ({ width: c.getBoundingClientRect().width, image: c.toDataURL() }));
  await expect.poll(async () => (await drawn()).width).toBeGreaterThan(600);
  const week = await drawn();
  await page.getByText('The figures as a table').click();
  await expect(page.getByRole('table', { name: 'Visitors and sign-ups per day' }).getByRole('row')).toHaveCount(8);
  await expect(page.getByText('IP geolocation by DB-IP (dbip.com), CC BY 4.0.')).toBeVisible();
  await expect(
    page.getByText(
      /This product includes GeoLite2 data created by MaxMind, available from https:\/\/www\.maxmind\.com/,
    ),
  ).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole('button', { name: '30 days' }).click();
  await expect(page.getByRole('table', { name: 'Visitors and sign-ups per day' }).getByRole('row')).toHaveCount(31);
  // The same chart, redrawn with 30 days (the day labels along the bottom differ).
  await expect.poll(async () => (await drawn()).image).not.toBe(week.image);
  await page.setViewportSize({ width: 500, height: 800 });
  await expect.poll(async () => (await drawn()).width).toBeLessThan(500);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(await cspViolations()).toEqual([]);
  await page.getByRole('button', { name: 'Custom' }).click();
  await page.getByLabel('From', { exact: true }).fill('2026-11-10');
  await page.getByLabel('To', { exact: true }).fill('2026-11-01');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByText('The start date must be on or before the end date.')).toBeVisible();
  await page.getByLabel('To', { exact: true }).fill('2026-11-12');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(
    page.getByText(/^2026-11-10 to 2026-11-12 \(UTC\), compared with 2026-11-07 to 2026-11-09/),
  ).toBeVisible();
});
