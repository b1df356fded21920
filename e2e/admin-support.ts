// Helpers for the console's browser tests: operators made in the e2e server's own database, the
// codes an authenticator app would show, and a separate client address per test.
import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { addOperator } from '../src/server/features/operators/operators.ts';
import type { OperatorRole } from '../src/shared/admin/roles.ts';
import { totpCode } from '../src/server/features/operators/totp.ts';
import { e2eSecrets, withServerStore } from './e2e-target.ts';

export const PASSWORD = 'violet kettle harbour 42';

export interface E2eOperator {
  email: string;
  secret: string;
  recoveryCodes: string[];
  /** The last 30-second step a code was used for: the server accepts each step once. */
  lastStep: number;
}

/** A new operator in the running server's database; an owner unless a role is named. */
export async function newOperator(label: string, role: OperatorRole = 'owner'): Promise<E2eOperator> {
  const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
  const { totpSecret, recoveryCodes } = await withServerStore((store) =>
    addOperator(store.db, email, PASSWORD, new Date(), role, e2eSecrets()),
  );
  return { email, secret: totpSecret, recoveryCodes, lastStep: 0 };
}

const stepNow = () => Math.floor(Date.now() / 30_000);

/**
 * A code the server will accept now: this step's, or the next one's (the server takes ±1 step)
 * when this step's was used already; waits for the clock when both were.
 */
export async function nextCode(op: E2eOperator): Promise<string> {
  let step = Math.max(stepNow(), op.lastStep + 1);
  if (step > stepNow() + 1) {
    await expect.poll(stepNow, { timeout: 35_000 }).toBeGreaterThanOrEqual(step - 1);
    step = Math.max(stepNow(), op.lastStep + 1);
  }
  op.lastStep = step;
  return totpCode(op.secret, new Date(step * 30_000));
}

/** Each test signs in from an address of its own (the e2e server trusts X-Forwarded-For). */
export async function ownAddress(page: Page): Promise<void> {
  const b = randomBytes(3);
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `10.${b[0]}.${b[1]}.${b[2]}` });
}

export async function signIn(page: Page, op: E2eOperator, via: 'totp' | 'recovery' = 'totp'): Promise<void> {
  await page.goto('/admin');
  await page.getByLabel('Email').fill(op.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  if (via === 'recovery') {
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code', { exact: true }).fill(op.recoveryCodes.shift() ?? '');
  } else {
    await page.getByLabel('6-digit code').fill(await nextCode(op));
  }
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
}

/** Answers the fresh-proof prompt with a new code. */
export async function confirmWithCode(page: Page, op: E2eOperator) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('6-digit code').fill(await nextCode(op));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
}

export async function axeViolations(page: Page): Promise<string[]> {
  // axe cannot run inside a frame that forbids scripts (sandbox=""): it waits there for ever. The
  // only such frame is the broadcast's HTML preview, which shows the email, not the console.
  const results = await new AxeBuilder({ page }).exclude('iframe[sandbox=""]').analyze();
  return results.violations.flatMap((v) =>
    v.nodes.map((node) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${node.target.join(' ')}`),
  );
}
