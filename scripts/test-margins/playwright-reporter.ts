import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
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
    });
  }

  onEnd(): void {
    for (const line of marginTable('Browser tests', this.timings)) console.log(line);
  }
}
