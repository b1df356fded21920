/** Prints a titled plain-text table; columns holding numbers are right-aligned. */
export function printTable(title: string, head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = head.map((_, i) => rows.every((r) => /^(?:[\d-]|n\/a|$)/.test(r[i] ?? '')));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => {
        const w = widths[i] ?? 0;
        return numeric[i] && i > 0 ? c.padStart(w) : c.padEnd(w);
      })
      .join('  ')
      .trimEnd();
  console.log(`\n${title}`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (value: number): string => `${Math.round(value)} ms`;
export const seconds = (valueMs: number): string => `${(valueMs / 1000).toFixed(2)} s`;
export const pct = (fraction: number): string => `${Math.round(fraction * 100)}%`;
export const int = (value: number): string => Math.round(value).toLocaleString('en-US');

/** "ok" or "MISS", for a target column that reads at a glance. */
export const verdict = (met: boolean): string => (met ? 'ok' : 'MISS');
