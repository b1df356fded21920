// The allowlist's words where a person reads them (decision 0045), on a 390 px phone and on a
// desktop: the button a sentence names is there to press, "Choose your wallet:" comes before the
// wallets, and the email offer's button looks pressable. In English and in Arabic (right to left).
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import * as arabic from '../content/messages/ar/allowlist.ts';
import * as english from '../content/messages/en/allowlist.ts';
import { startAllowlistServer, type AllowlistServer } from './allowlist-server.ts';
import { injectWallets } from './injected-wallet.ts';
import { DESKTOP, waitForHydration, watchConsole } from './support.ts';

const PHONE_390 = { width: 390, height: 844 } as const;
const LOCALES = [
  { name: 'English', path: '/', words: english },
  { name: 'Arabic', path: '/ar/', words: arabic },
] as const;
const SCREENS = [
  { name: '390 px phone', viewport: PHONE_390 },
  { name: 'desktop', viewport: DESKTOP },
] as const;

let server: AllowlistServer | undefined;
test.afterEach(async ({ page }) => {
  await page.close();
  await server?.close();
  server = undefined;
});

const panel = (page: Page) => page.locator('.allowlist-panel');
const status = (page: Page) => panel(page).getByRole('status');
const shot = (page: Page, info: TestInfo, name: string) =>
  page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: false });

/** Whether `a` comes before `b` in the document. */
const precedes = async (a: Locator, b: Locator) =>
  a.evaluate(
    (x, y) => Boolean(x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING),
    await b.elementHandle(),
  );

/** WCAG 2's contrast ratio of two computed colours (rgb/rgba, opaque). */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r = 0, g = 0, bl = 0] = (css.match(/[\d.]+/g) ?? []).map(Number);
    const lin = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(bl);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

for (const screen of SCREENS) {
  for (const locale of LOCALES) {
    const { walletMessages, walletPageWords } = locale.words;

    test(`${screen.name}, ${locale.name}: after the wallet moves to another chain, the button the sentence names is in sight and switches it back`, async ({
      page,
    }, info) => {
      const log = watchConsole(page);
      await page.setViewportSize(screen.viewport);
      server = await startAllowlistServer('allowlist', 1);
      const wallets = await injectWallets(page, [{ uuid: 'ee55ee-epsilon', name: 'Epsilon Wallet', chainId: '0x1' }]);
      await page.goto(`${server.origin}${locale.path}`);
      await waitForHydration(page);
      await panel(page).getByRole('button', { name: walletPageWords.connect }).click();
      const join = panel(page).getByRole('button', { name: walletMessages.join });
      await expect(join).toBeVisible();

      await wallets.emit('Epsilon Wallet', 'chainChanged', '0x38');
      await expect(status(page)).toHaveText(walletMessages.wrongChain({ chainId: 1, button: walletMessages.join }));
      await expect(join).toBeVisible();
      await join.scrollIntoViewIfNeeded();
      await expect(join).toBeInViewport();
      await shot(page, info, 'wrong-chain');

      // Pressed, it asks the wallet to switch back first, then signs: the visitor joins.
      await join.click();
      const short = `${wallets.account.address.slice(0, 5)}…${wallets.account.address.slice(-4)}`;
      const joinedWords = walletMessages.joined({ address: short, since: '\u0000' }).split('\u0000')[0] ?? '';
      await expect(status(page)).toContainText(joinedWords);
      const calls = (await wallets.calls()).map((c) => c.method);
      expect(calls.slice(calls.lastIndexOf('wallet_switchEthereumChain'))).toContain('personal_sign');
      expect(await server.store.db.selectFrom('allowlist_entries').select('address').execute()).toEqual([
        { address: wallets.account.address },
      ]);
      expect(log.errors).toEqual([]);
    });

    test(`${screen.name}, ${locale.name}: “Choose your wallet” stands before the wallets, in the document and on the screen`, async ({
      page,
    }, info) => {
      await page.setViewportSize(screen.viewport);
      server = await startAllowlistServer('allowlist', 1);
      await injectWallets(page, [
        { uuid: 'aa11aa-alpha', name: 'Alpha Wallet', chainId: '0x1' },
        { uuid: 'bb22bb-beta', name: 'Beta Wallet', chainId: '0x1' },
      ]);
      await page.goto(`${server.origin}${locale.path}`);
      await waitForHydration(page);
      await panel(page).getByRole('button', { name: walletPageWords.connect }).click();
      await expect(status(page)).toHaveText(walletMessages.choose);
      const first = panel(page).getByRole('button', { name: 'Alpha Wallet' });
      await expect(first).toBeVisible();
      expect(await precedes(status(page), first)).toBe(true);
      const label = await status(page).boundingBox();
      for (const name of ['Alpha Wallet', 'Beta Wallet']) {
        const button = await panel(page).getByRole('button', { name }).boundingBox();
        expect(label && button && label.y + label.height <= button.y + 1, `${name} below the label`).toBe(true);
      }
      await status(page).scrollIntoViewIfNeeded();
      await shot(page, info, 'choose-wallet');
    });

    test(`${screen.name}, ${locale.name}: the email offer’s button looks pressable, as the page’s other submit button does`, async ({
      page,
    }, info) => {
      await page.setViewportSize(screen.viewport);
      server = await startAllowlistServer('allowlist', 1);
      await injectWallets(page, [{ uuid: 'cc33cc-gamma', name: 'Gamma Wallet', chainId: '0x1' }]);
      await page.goto(`${server.origin}${locale.path}`);
      await waitForHydration(page);
      await panel(page).getByRole('button', { name: walletPageWords.connect }).click();
      await panel(page).getByRole('button', { name: walletMessages.join }).click();
      const submit = panel(page).getByRole('button', { name: walletPageWords.emailSubmit });
      await expect(submit).toBeVisible();
      await expect(submit).toBeEnabled();

      const look = (el: Locator) =>
        el.evaluate((node) => {
          const style = getComputedStyle(node);
          return { color: style.color, background: style.backgroundColor, opacity: style.opacity };
        });
      const offer = await look(submit);
      // Not the disabled look (the page's .button[disabled] fades it), not the browser's grey.
      expect(offer.opacity).toBe('1');
      expect(offer.background).not.toBe('rgb(239, 239, 239)');
      expect(contrast(offer.color, offer.background)).toBeGreaterThanOrEqual(4.5);
      // The sign-up form's submit is the page's one look for "send this".
      const signup = page.locator('.stay-updated button[type="submit"]');
      expect(offer).toEqual(await look(signup));
      await submit.scrollIntoViewIfNeeded();
      await shot(page, info, 'email-offer');
    });
  }
}
