// The two interactive parts of the page's top half: the Connect Wallet flip card (an island that
// wakes on intent) and the FAQ accordion (native disclosures, no script at all).
import { expect, test, type Page } from '@playwright/test';
import { accessibilityNode, content, facing, PHONE, waitForHydration } from './support.ts';

function wallet(page: Page) {
  const button = page.getByRole('button', { name: 'Connect Wallet', exact: true });
  return {
    button,
    front: button.locator('.wallet-front'),
    back: button.locator('.wallet-back'),
    status: page.getByRole('banner').getByRole('status'),
  };
}

type Wallet = ReturnType<typeof wallet>;

/** Which face the card shows, read from both faces' computed transforms (see `facing`). */
async function expectShowing(w: Wallet, side: 'front' | 'back'): Promise<void> {
  const front = side === 'front' ? 1 : -1;
  await expect
    .poll(() => facing(w.front), { message: `the front face should face ${side === 'front' ? 'us' : 'away'}` })
    .toBe(front);
  await expect
    .poll(() => facing(w.back), { message: `the back face should face ${side === 'back' ? 'us' : 'away'}` })
    .toBe(-front);
  await expect(w.back).toHaveText('Coming Soon');
}

test.describe('Connect Wallet button', () => {
  test('tells screen readers it is coming soon, and shows its front face at rest', async ({ page }) => {
    await page.goto('/');
    const w = wallet(page);
    await expect(w.button).toHaveAccessibleDescription(/Coming soon/i);
    // The visual back face is hidden from assistive tech (the description says it instead).
    await expect(w.back).toHaveAttribute('aria-hidden', 'true');
    await expectShowing(w, 'front');
    await expect(w.status).toHaveText('');
  });

  test('flips to "Coming Soon" on hover, and back when the pointer leaves', async ({ page }) => {
    await page.goto('/');
    const w = wallet(page);
    await expectShowing(w, 'front');
    await w.button.hover();
    await expectShowing(w, 'back');
    await page.mouse.move(0, 0);
    await expectShowing(w, 'front');
  });

  test('flips on keyboard focus (Tab)', async ({ page }) => {
    await page.goto('/');
    const w = wallet(page);
    await expectShowing(w, 'front');
    // Tab from the top of the page until the button has focus; it sits in the header.
    for (let presses = 0; presses < 5; presses++) {
      await page.keyboard.press('Tab');
      if (await w.button.evaluate((el) => el === document.activeElement)) break;
    }
    await expect(w.button).toBeFocused();
    await expectShowing(w, 'back');
    await expect(w.button).toHaveAccessibleDescription(/Coming soon/i);
  });

  test('flips on click and says so in a live region; stays flipped without hover', async ({ page }) => {
    await page.goto('/');
    const w = wallet(page);
    await waitForHydration(page);
    await w.button.click();
    await expect(w.status).toHaveText(/coming soon/i);
    // Not just :hover — move the pointer away and it stays on its back face.
    await page.mouse.move(0, 0);
    await expectShowing(w, 'back');
    // A second click turns it back.
    await w.button.click();
    await page.mouse.move(0, 0);
    await expectShowing(w, 'front');
    await expect(w.status).toHaveText('');
  });

  test.describe('on a touch phone', () => {
    test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

    test('flips on tap', async ({ page }) => {
      await page.goto('/');
      const w = wallet(page);
      await waitForHydration(page);
      await expectShowing(w, 'front');
      await w.button.tap();
      await expectShowing(w, 'back');
      await expect(w.status).toHaveText(/coming soon/i);
      await expect(w.button).toHaveAttribute('data-flipped', 'true');
    });
  });
});

test.describe('FAQ accordion', () => {
  // Native <details>/<summary> disclosures: no JavaScript is needed for any of this, so none of
  // these tests waits for the page's script.
  function faqItems(page: Page) {
    const faq = page.getByRole('region', { name: 'FAQS', exact: true });
    return content.faq.map((item, i) => {
      const details = faq.locator('details').nth(i);
      return {
        details,
        id: `faq-q-${i}`,
        question: details.locator('summary'),
        // includeHidden: closed panels are out of the accessibility tree but must still exist.
        panel: faq.getByRole('region', { name: item.question, exact: true, includeHidden: true }),
        text: item.question,
        answer: item.answer,
      };
    });
  }
  type Item = ReturnType<typeof faqItems>[number];

  async function expectOpen(page: Page, item: Item, open: boolean) {
    await expect(item.details).toHaveJSProperty('open', open);
    // What a screen reader is told: Chromium's accessibility tree, not just the markup.
    await expect.poll(async () => (await accessibilityNode(page, item.id)).expanded).toBe(open);
    if (open) {
      await expect(item.panel).toBeVisible();
      await expect(item.panel).toHaveText(item.answer);
    } else {
      await expect(item.panel).toBeHidden();
    }
  }

  test('opens the first question on load; each question is a disclosure that controls its answer', async ({ page }) => {
    await page.goto('/');
    const items = faqItems(page);
    expect(items).toHaveLength(5);
    for (const [i, item] of items.entries()) {
      await expect(item.question).toHaveText(item.text);
      await expectOpen(page, item, i === 0);
      // Announced as an expandable control named by its question (Chromium's role for a
      // summary), whose answer is a region labelled by that question, inside the same disclosure.
      const node = await accessibilityNode(page, item.id);
      expect(node.role).toBe('DisclosureTriangle');
      expect(node.name).toBe(item.text);
      await expect(item.panel).toHaveAttribute('aria-labelledby', item.id);
      await expect(item.details.locator('.accordion-panel')).toHaveCount(1);
    }
  });

  test('click opens and closes each question on its own', async ({ page }) => {
    // Thirteen checks of the markup, the accessibility tree and the panels by role: 28 s on its own
    // on a slow two-core machine, and past the 30 s budget once in a clean-clone CI run beside
    // other tests. The time is the checks', not a wait; the budget is what grows.
    test.slow();
    await page.goto('/');
    const items = faqItems(page);
    const [first, second, third] = [items[0], items[1], items[2]];
    if (!first || !second || !third) throw new Error('expected five FAQ items');

    await second.question.click();
    await expectOpen(page, second, true);
    await expectOpen(page, first, true);
    await expectOpen(page, third, false);

    await first.question.click();
    await expectOpen(page, first, false);
    await expectOpen(page, second, true);

    await second.question.click();
    await expectOpen(page, second, false);

    for (const item of items) {
      await item.question.click();
      await expectOpen(page, item, true);
    }
  });

  test('Enter and Space toggle the focused question', async ({ page }) => {
    await page.goto('/');
    const items = faqItems(page);
    const [first, last] = [items[0], items[4]];
    if (!first || !last) throw new Error('expected five FAQ items');

    await last.question.focus();
    await expect(last.question).toBeFocused();
    await page.keyboard.press('Enter');
    await expectOpen(page, last, true);
    await page.keyboard.press('Enter');
    await expectOpen(page, last, false);
    await page.keyboard.press('Space');
    await expectOpen(page, last, true);
    await page.keyboard.press('Space');
    await expectOpen(page, last, false);

    await first.question.focus();
    await page.keyboard.press('Space');
    await expectOpen(page, first, false);
    await page.keyboard.press('Enter');
    await expectOpen(page, first, true);
    // Focus stays on the question throughout.
    await expect(first.question).toBeFocused();
  });

  test.describe('with JavaScript off', () => {
    test.use({ javaScriptEnabled: false });

    test('the questions still open and close, by click and by keyboard', async ({ page }) => {
      await page.goto('/');
      const [first, second] = faqItems(page);
      if (!first || !second) throw new Error('expected five FAQ items');
      await expectOpen(page, first, true);
      await second.question.click();
      await expectOpen(page, second, true);
      await first.question.focus();
      await page.keyboard.press('Enter');
      await expectOpen(page, first, false);
    });
  });
});
