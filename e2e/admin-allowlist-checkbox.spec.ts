// The console's "Keep registration open" checkbox (the Allowlist view): a box the size of a box,
// beside the first line of its words, on a 390 px phone and on a desktop.
import { expect, test } from '@playwright/test';
import { newOperator, ownAddress, signIn } from './admin-support.ts';
import { DESKTOP } from './support.ts';

for (const [screen, viewport] of [
  ['390 px phone', { width: 390, height: 844 }],
  ['desktop', DESKTOP],
] as const) {
  test(`${screen}: the keep-open checkbox is at most 24 px and sits on its label's first line`, async ({
    page,
  }, info) => {
    await page.setViewportSize(viewport);
    await ownAddress(page);
    await signIn(page, await newOperator('allow-box', 'sender'));
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Allowlist' }).click();
    const box = page.getByRole('checkbox', { name: /Keep registration open/ });
    await expect(box).toBeVisible();

    const found = await box.evaluate((input) => {
      const label = input.closest('label');
      const words = [...(label?.childNodes ?? [])].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      const range = document.createRange();
      if (words) range.selectNodeContents(words);
      const line = range.getClientRects()[0];
      const r = input.getBoundingClientRect();
      return {
        box: { x: r.x, y: r.y, width: r.width, height: r.height },
        line: line ? { x: line.x, y: line.y, height: line.height } : null,
      };
    });
    expect(found.box.width).toBeLessThanOrEqual(24);
    expect(found.box.height).toBeLessThanOrEqual(24);
    expect(found.box.width).toBeGreaterThanOrEqual(16); // still a box one can see and hit
    expect(found.line).not.toBeNull();
    const line = found.line ?? { x: 0, y: 0, height: 0 };
    // Beside the words, not above them: its middle within the first line, and before it (LTR).
    const middle = found.box.y + found.box.height / 2;
    expect(middle).toBeGreaterThanOrEqual(line.y);
    expect(middle).toBeLessThanOrEqual(line.y + line.height);
    expect(found.box.x + found.box.width).toBeLessThanOrEqual(line.x + 1);

    // Its label still toggles it (the label is the touch target).
    await page.getByText(/Keep\s+registration open/).click();
    await expect(box).toBeChecked();
    await page.getByRole('checkbox', { name: /Keep registration open/ }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath('keep-open.png') });
  });
}
