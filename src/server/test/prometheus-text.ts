/**
 * The value of one series in Prometheus' text format (exactly these labels), or undefined when it
 * is not there. Scrapes are read as Prometheus would read them, line by line; prom-client itself
 * only writes the format.
 */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(have).length && wanted.every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}
