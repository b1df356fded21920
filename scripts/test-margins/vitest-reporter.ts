import type { Reporter, TestModule } from 'vitest/node';
import { marginTable, type Timing } from './margins.ts';

/** Adds the margins table to vitest's own report (vitest.config.ts lists it beside 'default'). */
export default class MarginsReporter implements Reporter {
  constructor(private readonly defaultTimeout: number) {}

  onTestRunEnd(modules: readonly TestModule[]): void {
    const timings: Timing[] = [];
    for (const module of modules)
      for (const test of module.children.allTests()) {
        const result = test.result();
        const diagnostic = test.diagnostic();
        if (result.state === 'skipped' || result.state === 'pending' || !diagnostic) continue;
        timings.push({
          name: `${test.module.moduleId.replace(`${process.cwd()}/`, '')} › ${test.fullName}`,
          ms: diagnostic.duration,
          limitMs: test.options.timeout ?? this.defaultTimeout,
        });
      }
    for (const line of marginTable('Unit and integration tests', timings)) console.log(line);
  }
}
