// Passkeys in a real Chromium, with a virtual authenticator from the DevTools protocol's WebAuthn
// domain (a platform authenticator that verifies its user at once). WebAuthn needs a domain for
// its RP ID, never an IP address, and the e2e server lives at 127.0.0.1; so this test builds the
// app in its own process (as e2e/clocked-console-server.ts does) with PUBLIC_URL at
// http://localhost:<port> (a secure context, like 127.0.0.1) on the project's own database.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.ts';
import { loadEnv } from '../src/server/env.ts';
import { createGeoLookup, type GeoLookup } from '../src/server/geo/geo-lookup.ts';
import { loadSiteBuild } from '../src/server/features/site/site-build.ts';
import { openStore, type Store } from '../src/server/store/database.ts';
import { axeViolations, newOperator, ownAddress, PASSWORD, signIn } from './admin-support.ts';
import { e2eTarget, withServerStore } from './e2e-target.ts';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let app: FastifyInstance;
let store: Store;
let geo: GeoLookup;
let outbox: string;
let origin: string;
let context: BrowserContext | undefined;

test.beforeEach(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  outbox = mkdtempSync(path.join(os.tmpdir(), 'dh-e2e-passkeys-'));
  const { databaseUrl } = e2eTarget();
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    OUTBOX_DIR: outbox,
    TRUST_PROXY: 'true',
    PUBLIC_URL: origin,
    DATA_KEY: process.env.E2E_DATA_KEY,
  });
  store = await openStore(databaseUrl);
  geo = await createGeoLookup();
  app = await buildApp({ env, build: await loadSiteBuild(path.resolve(import.meta.dirname, '../dist')), store, geo });
  await app.listen({ port, host: '127.0.0.1' });
});
// The browser first, so the server has no open connection left to wait for, pass or fail.
test.afterEach(async () => {
  await context?.close();
  context = undefined;
  await app?.close();
  geo.close();
  await store.close();
  rmSync(outbox, { recursive: true, force: true });
});

test('adds a passkey, signs in with password and passkey, and confirms an action with it', async ({ browser }) => {
  // Two sign-ins and a registration, each with argon2id and a software authenticator: past 30 s
  // on a busy two-core machine with the PostgreSQL store.
  test.slow();
  context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  await ownAddress(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  const op = await newOperator('passkey');

  // Signed in with a code (fresh proof), the operator adds a passkey in the Sessions view.
  await signIn(page, op);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Sessions' }).click();
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await expect(passkeys.getByText('You have no passkey yet.')).toBeVisible();
  await passkeys.getByLabel('Name for a new passkey').fill('Virtual key');
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeys.getByRole('status')).toHaveText(
    'Added the passkey “Virtual key”. You can use it to sign in and to confirm actions.',
  );
  await expect(passkeys.getByRole('cell', { name: 'Virtual key', exact: true })).toBeVisible();
  await passkeys.getByRole('button', { name: 'Rename “Virtual key”' }).click();
  expect(await axeViolations(page)).toEqual([]);
  await passkeys.getByRole('button', { name: 'Cancel “Virtual key”' }).click();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.rpId).toBe('localhost');

  // Sign out, then in again: password, and the passkey instead of a code.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  await page.getByLabel('Email').fill(op.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();

  // Signed in with a recovery code (no fresh proof), removing the passkey asks to confirm, and the
  // prompt takes the passkey itself.
  await signIn(page, op, 'recovery');
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Sessions' }).click();
  await passkeys.getByRole('button', { name: 'Remove “Virtual key”' }).click();
  const prompt = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(prompt).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await prompt.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(prompt).toBeHidden();
  await expect(passkeys.getByRole('status')).toHaveText(
    'Removed the passkey “Virtual key”. It no longer signs you in.',
  );
  await expect(passkeys.getByText('You have no passkey yet.')).toBeVisible();

  const log = await withServerStore((s) =>
    s.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('actor', '=', op.email)
      .where('action', 'like', 'passkey.%')
      .orderBy('at')
      .orderBy('id')
      .execute(),
  );
  expect(log.map((e) => `${e.action} ${e.detail}`)).toEqual(
    expect.arrayContaining([
      'passkey.added “Virtual key”',
      'passkey.used “Virtual key”, to sign in',
      'passkey.used “Virtual key”, as fresh proof',
      'passkey.removed “Virtual key”',
    ]),
  );
});
