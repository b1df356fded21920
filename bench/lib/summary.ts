// The figures every bench hands to `npm run bench` (bench/all.ts), which prints them as one table.
// A bench run on its own prints its detailed tables only; run by bench/all.ts it also appends its
// headline figures here, one JSON object a line, to the file BENCH_SUMMARY_FILE names.
import { appendFileSync, readFileSync } from 'node:fs';
import { z } from 'zod';

export const summaryRowSchema = z.object({
  bench: z.string(),
  figure: z.string(),
  value: z.string(),
  /** The bare node:http server answering the same requests in the same run. */
  ceiling: z.string().default(''),
  ratio: z.string().default(''),
  /** Server CPU per request: production, then the bare server. */
  cpuPerRequest: z.string().default(''),
  p50: z.string().default(''),
  /** The tail latency with its name: `p99 …` for load runs, `p95 …` where the issue judges at p95. */
  tail: z.string().default(''),
  peakRss: z.string().default(''),
  /** The target and whether it was met, where the issue sets one. */
  target: z.string().default(''),
});
export type SummaryRow = z.input<typeof summaryRowSchema>;

const SUMMARY_FILE = 'BENCH_SUMMARY_FILE';

/** Appends `rows` to the run's summary when bench/all.ts started this bench; otherwise nothing. */
export function recordSummary(rows: SummaryRow[]): void {
  const file = process.env[SUMMARY_FILE];
  if (!file) return;
  appendFileSync(file, rows.map((r) => `${JSON.stringify(summaryRowSchema.parse(r))}\n`).join(''));
}

/** The rows the benches of one run recorded, in order; a line that does not parse is skipped. */
export function readSummary(file: string): z.output<typeof summaryRowSchema>[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        const parsed = summaryRowSchema.safeParse(JSON.parse(line));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
}

export const summaryFileEnv = SUMMARY_FILE;
export const mb = (bytes: number | null): string => (bytes === null ? '' : `${Math.round(bytes / (1024 * 1024))} MB`);
