import { existsSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { chromiumFlags, chromiumPath } from '../../scripts/chromium.ts';
import { assertLocal } from './http.ts';
import { onCleanup, withTimeout } from './processes.ts';

export const chromePath = chromiumPath;
export const chromeFlags = ['--headless=new', ...chromiumFlags];

export const categoryIds = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type CategoryId = (typeof categoryIds)[number];

/**
 * One Lighthouse run with Lighthouse's defaults (mobile emulation, simulated throttling) in a
 * fresh Chrome, so no run inherits another's cache or compiled code.
 */
export async function runLighthouseOnce(url: string, timeoutMs = 120_000): Promise<Result> {
  assertLocal(url);
  // chrome-launcher reports a missing binary as an unhandled 'error' event that kills the process.
  if (!existsSync(chromePath)) throw new Error(`No Chromium at ${chromePath}; set CHROME_PATH.`);
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags, logLevel: 'silent' });
  const unregister = onCleanup(() => chrome.kill());
  try {
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...categoryIds],
    };
    const result = await withTimeout(lighthouse(url, flags), timeoutMs, 'Lighthouse', () => chrome.kill());
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    return lhr;
  } finally {
    unregister();
    chrome.kill();
  }
}

export const categoryScore = (lhr: Result, id: CategoryId): number | null => lhr.categories[id]?.score ?? null;

/** The run whose performance score is the median; ties keep run order. */
export function medianByPerformance(runs: Result[]): Result {
  const perf = (lhr: Result) => categoryScore(lhr, 'performance') ?? 0;
  const sorted = [...runs].sort((a, b) => perf(a) - perf(b));
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!median) throw new Error('no Lighthouse runs');
  return median;
}

export interface AuditFinding {
  id: string;
  score: number | null;
  weight: number;
  title: string;
  displayValue: string;
}

const finding = (id: string, audit: Result['audits'][string], weight: number): AuditFinding => ({
  id,
  score: audit.score,
  weight,
  title: audit.title,
  displayValue: audit.displayValue ?? '',
});

/** Audits that cost a category points: weighted and scored below 1. */
export function failingAudits(lhr: Result, id: CategoryId): AuditFinding[] {
  const category = lhr.categories[id];
  if (!category) return [];
  return category.auditRefs.flatMap((ref) => {
    const audit = lhr.audits[ref.id];
    if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 1) return [];
    return [finding(ref.id, audit, ref.weight)];
  });
}

/**
 * Performance audits that carry no weight themselves but name estimated savings on the metrics:
 * where the weighted metric scores are lost.
 */
export function performanceHints(lhr: Result): AuditFinding[] {
  const category = lhr.categories.performance;
  if (!category) return [];
  return category.auditRefs.flatMap((ref) => {
    const audit = lhr.audits[ref.id];
    if (!audit || ref.weight > 0 || audit.score === null || audit.score >= 1) return [];
    if (audit.scoreDisplayMode !== 'metricSavings' && audit.scoreDisplayMode !== 'numeric') return [];
    return [finding(ref.id, audit, 0)];
  });
}

export interface NetworkRequest {
  url: string;
  resourceType: string;
  transferSize: number;
  resourceSize: number;
}

/** The network-requests audit's rows (transfer sizes include response headers). */
export function networkRequests(lhr: Result): NetworkRequest[] {
  const details = lhr.audits['network-requests']?.details;
  if (!details || details.type !== 'table') return [];
  return details.items.map((item) => ({
    url: typeof item.url === 'string' ? item.url : '',
    resourceType: typeof item.resourceType === 'string' ? item.resourceType : '',
    transferSize: typeof item.transferSize === 'number' ? item.transferSize : 0,
    resourceSize: typeof item.resourceSize === 'number' ? item.resourceSize : 0,
  }));
}
