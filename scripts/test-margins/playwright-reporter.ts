import type { Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import { marginTable, type Timing } from './margins.ts';

/** Adds the margins table to Playwright's own report (playwright.config.ts lists it beside 'list'). */
export default class MarginsReporter implements Reporter {
  private readonly timings: Timing[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'skipped') return;
    // test.timeout is the limit as the test left it (test.setTimeout included).
    const project = test.parent.project()?.name ?? '';
    this.timings.push({
      name: `[${project}] ${test.titlePath().slice(2).join(' › ')}`,
      ms: result.duration,
      limitMs: test.timeout,
      longest: longestStep(result.steps),
    });
  }

  onEnd(): void {
    for (const line of marginTable('Browser tests', this.timings)) console.log(line);
  }
}

/**
 * Where a test's time went: its longest step, and inside that the longest of its own steps, two
 * levels down (e.g. "After Hooks › fixture: context"). A test that took 33 s where its steps took 4
 * says at once whether a hook, a fixture's teardown or the body held it.
 */
function longestStep(steps: readonly TestStep[], depth = 2): string | undefined {
  const top = steps.reduce<TestStep | undefined>((a, b) => (a && a.duration >= b.duration ? a : b), undefined);
  if (!top) return undefined;
  const inner = depth > 1 ? longestStep(top.steps, depth - 1) : undefined;
  return inner ? `${top.title} › ${inner}` : `${top.title} ${(top.duration / 1000).toFixed(1)} s`;
}
