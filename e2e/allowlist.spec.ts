// The presale allowlist in a browser (docs/decisions/0045-wallet-allowlist.md): wallets injected
// as extensions inject theirs (EIP-6963), backed by a real secp256k1 key in the test process; the
// page's own server in allowlist mode (allowlist-server.ts) on a database of its own.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { testAccount } from '../src/server/test/test-account.ts';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { walletMessages, walletPageWords, walletRefusals } from '../content/messages/en/allowlist.ts';
import { walletLinkMessages } from '../content/messages/en/wallet-link.ts';
import { groupedAddress, shortAddress } from '../src/server/features/allowlist/short-address.ts';
import { startAllowlistServer, type AllowlistServer } from './allowlist-server.ts';
import { injectWallets } from './injected-wallet.ts';
import { openBeforeLoader, waitForHydration, waitForIsland, watchConsole } from './support.ts';

let server: AllowlistServer | undefined;
test.afterEach(async ({ page }) => {
  await page.close();
  await server?.close();
  server = undefined;
});

const block = (page: Page) => page.getByRole('region', { name: walletPageWords.heading });
const status = (page: Page) => block(page).getByRole('status');
const short = (address: string) => `${address.slice(0, 5)}…${address.slice(-4)}`;

test('two wallets announce; the visitor picks one, the chain is switched, the message signed, the list joined and left', async ({
  page,
}) => {
  // A server of its own, two page loads, two signatures and an accessibility scan: about 15 s on a
  // quiet machine.
  // Twice that, on a slower machine, stays within half of 60 s.
  test.setTimeout(60_000);
  const log = watchConsole(page);
  server = await startAllowlistServer('allowlist', 1);
  // Alpha announces twice (at load and when asked): listed once.
  const wallets = await injectWallets(page, [
    { uuid: 'aa11aa-alpha', name: 'Alpha Wallet', chainId: '0x5' },
    { uuid: 'bb22bb-beta', name: 'Beta Wallet', chainId: '0x5' },
  ]);
  const { address } = wallets.account;
  await page.goto(`${server.origin}/`);
  await waitForHydration(page);

  // The header invites to the block, by a plain link.
  await expect(page.getByRole('link', { name: walletPageWords.headerJoin })).toHaveAttribute('href', '/#allowlist');
  await expect(block(page).getByText(walletPageWords.never)).toBeVisible();

  await block(page).getByRole('button', { name: walletMessages.connect }).click();
  await waitForIsland(page, 'allowlist');
  const choices = block(page).getByRole('listitem');
  await expect(choices).toHaveCount(2);
  await expect(choices.getByRole('button')).toHaveText(['Alpha Wallet', 'Beta Wallet']);
  // Icons only ever through <img>, as data: URIs (no request to anyone).
  await expect(choices.locator('img')).toHaveCount(2);
  expect(await choices.locator('img').first().getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);

  await block(page).getByRole('button', { name: 'Beta Wallet' }).click();
  await expect(status(page)).toHaveText(walletMessages.notJoined({ address: short(address) }));
  const join = block(page).getByRole('button', { name: walletMessages.join });
  await join.click();
  await expect(status(page)).toContainText(`${short(address)} is on the allowlist since `);
  const row = await server.store.db.selectFrom('allowlist_entries').selectAll().executeTakeFirstOrThrow();
  expect(row.address).toBe(address);

  // Only the wallet picked was asked; the chain was switched to the presale's; one signature.
  expect((await wallets.calls()).map((c) => `${c.wallet}: ${c.method}`)).toEqual(
    [
      'eth_requestAccounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
      'eth_chainId',
      'eth_chainId',
      'personal_sign',
    ].map((m) => `Beta Wallet: ${m}`),
  );
  const switched = (await wallets.calls()).find((c) => c.method === 'wallet_switchEthereumChain');
  expect(switched?.params).toEqual([{ chainId: '0x1' }]);

  // A later visit finds it joined; leaving takes another signature.
  await page.reload();
  await waitForHydration(page);
  await block(page).getByRole('button', { name: walletMessages.connect }).click();
  await block(page).getByRole('button', { name: 'Alpha Wallet' }).click();
  await expect(status(page)).toContainText(`${short(address)} is on the allowlist since `);
  await block(page).getByRole('button', { name: walletMessages.leave }).click();
  await expect(status(page)).toHaveText(walletMessages.left({ address: short(address) }));
  expect(await server.store.db.selectFrom('allowlist_entries').selectAll().execute()).toEqual([]);
  const after = await wallets.calls();
  expect(after.every((c) => c.wallet === 'Alpha Wallet')).toBe(true);
  expect(after.filter((c) => c.method === 'personal_sign')).toHaveLength(1);

  // The visitor picks another account in the wallet: the page follows it (accountsChanged).
  const other = testAccount().address;
  await wallets.emit('Alpha Wallet', 'accountsChanged', [other.toLowerCase()]);
  await expect(status(page)).toHaveText(walletMessages.notJoined({ address: short(other) }));
  await expect(block(page).getByRole('button', { name: walletMessages.join })).toBeVisible();
  // And another chain: the sentence names the button that asks the wallet to switch back, in sight.
  await wallets.emit('Alpha Wallet', 'chainChanged', '0x38');
  await expect(status(page)).toHaveText(walletMessages.wrongChain({ chainId: 1, button: walletMessages.join }));
  await expect(block(page).getByRole('button', { name: walletMessages.join })).toBeVisible();
  expect(await new AxeBuilder({ page }).analyze().then((r) => r.violations.map((v) => v.id))).toEqual([]);
  expect(log.errors).toEqual([]);
});

test('after joining, the visitor may ask to be told by email; the link counts once the email’s owner presses the button of the email naming the wallet, which works without JavaScript', async ({
  page,
  browser,
}) => {
  // Two pages, a join, a sign-up and its emails: about 20 s alone on a quiet machine.
  test.slow();
  const log = watchConsole(page);
  server = await startAllowlistServer('allowlist', 1);
  const wallets = await injectWallets(page, [{ uuid: 'cc33cc-gamma', name: 'Gamma Wallet', chainId: '0x1' }]);
  const { address } = wallets.account;
  await page.goto(`${server.origin}/`);
  await waitForHydration(page);
  await block(page).getByRole('button', { name: walletMessages.connect }).click();
  const offer = block(page).getByText(walletPageWords.emailOffer);
  await expect(block(page).getByRole('button', { name: walletMessages.join })).toBeVisible();
  // Not offered before a join this page just signed.
  await expect(offer).toBeHidden();
  await block(page).getByRole('button', { name: walletMessages.join }).click();
  await expect(status(page)).toContainText(`${short(address)} is on the allowlist since `);
  await expect(offer).toBeVisible();
  expect(await new AxeBuilder({ page }).analyze().then((r) => r.violations.map((v) => v.id))).toEqual([]);

  await block(page).getByLabel('Name').fill('Ada');
  await block(page).getByLabel('Email').fill('ada@example.com');
  await block(page).getByRole('button', { name: walletPageWords.emailSubmit }).click();
  await expect(status(page)).toHaveText(walletRefusals.linkAsked);
  await expect(offer).toBeHidden();
  const entry = () => server?.store.db.selectFrom('allowlist_entries').selectAll().executeTakeFirstOrThrow();
  const person = await server.store.db.selectFrom('subscribers').selectAll().executeTakeFirstOrThrow();
  expect(person).toMatchObject({ email: 'ada@example.com', status: 'pending' });
  // Asked, not linked: the email's owner has not pressed anything yet.
  expect((await entry())?.subscriber_id).toBeNull();

  // The email for this link names the wallet; its page and button work without JavaScript. Where
  // the person decides, the page shows the whole address, not the short form a look-alike matches.
  await server.sendMail();
  const walletLink = await walletLinkIn(server.outboxDir, 'ada@example.com');
  expect(walletLink.subject).toContain(shortAddress(address));
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  try {
    const mailPage = await noScript.newPage();
    await mailPage.goto(walletLink.url);
    const words = walletLinkMessages.page.pending;
    await expect(mailPage.getByRole('heading', { level: 1 })).toHaveText(words.title);
    await expect(mailPage.getByText(words.message)).toBeVisible();
    await expect(mailPage.locator('.wallet-address')).toHaveText(groupedAddress(address));
    expect((await entry())?.subscriber_id).toBeNull();
    await mailPage.getByRole('button', { name: words.button }).click();
    await expect(mailPage.getByRole('heading', { level: 1 })).toHaveText(walletLinkMessages.page.linked.title);
    await expect(mailPage.locator('.wallet-address')).toHaveText(groupedAddress(address));
  } finally {
    await noScript.close();
  }
  expect((await entry())?.subscriber_id).toBe(person.id);
  expect(log.errors).toEqual([]);
});

/** The wallet-link email to `to` in a server's outbox folder, once it is there: its subject and link. */
async function walletLinkIn(dir: string, to: string): Promise<{ subject: string; url: string }> {
  let found: { subject: string; url: string } | undefined;
  await expect
    .poll(async () => {
      const names = existsSync(dir) ? await readdir(dir) : [];
      for (const name of names.filter((n) => n.endsWith('.eml'))) {
        const mail = await simpleParser(await readFile(path.join(dir, name)));
        const url = (mail.text ?? '').match(/https?:\/\/\S+\/wallet-link\?token=\S+/)?.[0];
        if (url && (mail.to && 'text' in mail.to ? mail.to.text : '') === to)
          found = { subject: mail.subject ?? '', url };
      }
      return found !== undefined;
    })
    .toBe(true);
  if (!found) throw new Error('no wallet-link email');
  return found;
}

test('with no wallet at all: a plain explanation and links that open the page in wallet apps', async ({ page }) => {
  server = await startAllowlistServer('allowlist', 1);
  await page.goto(`${server.origin}/`);
  await waitForHydration(page);
  await block(page).getByRole('button', { name: walletMessages.connect }).click();
  await expect(status(page)).toHaveText(walletMessages.noWallet);
  const metamask = block(page).getByRole('link', { name: walletMessages.openIn({ wallet: 'MetaMask' }) });
  await expect(metamask).toHaveAttribute('href', `https://metamask.app.link/dapp/${new URL(server.origin).host}/`);
  await expect(block(page).getByRole('link', { name: /^Open in / })).toHaveCount(3);
});

test('a press on Connect before the page’s loader has arrived is kept: the wallet is asked once the loader is in', async ({
  page,
}) => {
  server = await startAllowlistServer('allowlist', 1);
  const wallets = await injectWallets(page, [{ uuid: 'dd44dd-delta', name: 'Delta Wallet', chainId: '0x1' }]);
  const release = await openBeforeLoader(page, `${server.origin}/`);
  await block(page).getByRole('button', { name: walletMessages.connect }).click();
  expect(await wallets.calls()).toEqual([]);
  release();
  await waitForIsland(page, 'allowlist');
  await expect(status(page)).toHaveText(walletMessages.notJoined({ address: short(wallets.account.address) }));
  // Replayed once: one request for the accounts, not two.
  expect((await wallets.calls()).filter((c) => c.method === 'eth_requestAccounts')).toHaveLength(1);
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the page is complete: the header link, the block, what joining needs, what it never asks', async ({ page }) => {
    server = await startAllowlistServer('allowlist', 1);
    await page.goto(`${server.origin}/`);
    await expect(page.getByRole('link', { name: walletPageWords.headerJoin })).toBeVisible();
    await expect(block(page).getByText(walletPageWords.intro)).toBeVisible();
    await expect(block(page).getByText(walletPageWords.needs)).toBeVisible();
    await expect(block(page).getByText(walletPageWords.never)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Connect Wallet', exact: true }).first()).toBeVisible();
  });
});

test('coming-soon (the shipped content): the header button flips as before and there is no allowlist', async ({
  page,
}) => {
  await page.goto('/');
  await waitForHydration(page);
  await expect(block(page)).toHaveCount(0);
  await expect(page.locator('[data-island="allowlist"]')).toHaveCount(0);
  const button = page.getByRole('button', { name: 'Connect Wallet', exact: true });
  await button.click();
  await waitForIsland(page, 'wallet');
  await expect(button).toHaveAttribute('data-flipped', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Connect Wallet is coming soon.' })).toBeAttached();
});
