// The two interactive parts of the page, with JavaScript on: the Connect Wallet flip card and the
// FAQ accordion.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { content, facing, PHONE, waitForHydration } from './support.ts';

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
  await expect.poll(() => facing(w.front), { message: `the front face should face ${side === 'front' ? 'us' : 'away'}` }).toBe(front);
  await expect.poll(() => facing(w.back), { message: `the back face should face ${side === 'back' ? 'us' : 'away'}` }).toBe(-front);
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
  function faqItems(page: Page): { question: Locator; panel: Locator; answer: string }[] {
    const faq = page.getByRole('region', { name: 'FAQS', exact: true });
    return content.faq.map((item) => ({
      question: faq.getByRole('button', { name: item.question, exact: true }),
      // includeHidden: closed panels are out of the accessibility tree but must still exist.
      panel: faq.getByRole('region', { name: item.question, exact: true, includeHidden: true }),
      answer: item.answer,
    }));
  }

  async function expectOpen(item: { question: Locator; panel: Locator; answer: string }, open: boolean) {
    await expect(item.question).toHaveAttribute('aria-expanded', String(open));
    if (open) {
      await expect(item.panel).toBeVisible();
      await expect(item.panel).toHaveText(item.answer);
    } else {
      await expect(item.panel).toBeHidden();
    }
  }

  test('opens the first question on load; each question is a button that controls its panel', async ({ page }) => {
    await page.goto('/');
    const items = faqItems(page);
    expect(items).toHaveLength(5);
    for (const [i, item] of items.entries()) {
      await expectOpen(item, i === 0);
      // aria-controls names the panel's id, and the panel is labelled by its question.
      const panelId = await item.question.getAttribute('aria-controls');
      expect(panelId).toBeTruthy();
      await expect(item.panel).toHaveAttribute('id', panelId ?? '');
      const questionId = await item.question.getAttribute('id');
      await expect(item.panel).toHaveAttribute('aria-labelledby', questionId ?? '');
    }
  });

  test('click opens and closes each question on its own', async ({ page }) => {
    await page.goto('/');
    const items = faqItems(page);
    const [first, second, third] = [items[0], items[1], items[2]];
    if (!first || !second || !third) throw new Error('expected five FAQ items');
    await waitForHydration(page);

    await second.question.click();
    await expectOpen(second, true);
    await expectOpen(first, true);
    await expectOpen(third, false);

    await first.question.click();
    await expectOpen(first, false);
    await expectOpen(second, true);

    await second.question.click();
    await expectOpen(second, false);

    for (const item of items) {
      await item.question.click();
      await expectOpen(item, true);
    }
  });

  test('Enter and Space toggle the focused question', async ({ page }) => {
    await page.goto('/');
    const items = faqItems(page);
    const [first, last] = [items[0], items[4]];
    if (!first || !last) throw new Error('expected five FAQ items');
    await waitForHydration(page);

    await last.question.focus();
    await expect(last.question).toBeFocused();
    await page.keyboard.press('Enter');
    await expectOpen(last, true);
    await page.keyboard.press('Enter');
    await expectOpen(last, false);
    await page.keyboard.press('Space');
    await expectOpen(last, true);
    await page.keyboard.press('Space');
    await expectOpen(last, false);

    await first.question.focus();
    await page.keyboard.press('Space');
    await expectOpen(first, false);
    await page.keyboard.press('Enter');
    await expectOpen(first, true);
    // Focus stays on the question throughout.
    await expect(first.question).toBeFocused();
  });
});
