import type { Sums } from './audience-sums.ts';

// Shaping the Audience report from summed roll-ups, without reading anything: the top lists in
// rank order, each country's top cities, and a series' totals with its conversion.

export type Grouped = Sums & { value: string };

/** By visitors, then views, then value: the order of every top list. */
const rankOrder = (a: Grouped, b: Grouped) =>
  b.visitors - a.visitors || b.views - a.views || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/** The first `limit` in rank order, without sorting every value (there may be tens of thousands). */
export function topOf(entries: Iterable<Grouped>, limit: number): Grouped[] {
  const best: Grouped[] = [];
  for (const e of entries) {
    const last = best.at(-1);
    if (best.length === limit && last && rankOrder(e, last) >= 0) continue;
    best.push(e);
    best.sort(rankOrder);
    if (best.length > limit) best.pop();
  }
  return best;
}

export function* grouped(sums: Map<string, Sums>): Iterable<Grouped> {
  for (const [value, s] of sums) yield { value, ...s };
}

/**
 * The top `perCountry` cities of each country. City roll-ups are keyed "City, CC"
 * (visit-recorder.ts), so a city's country is what follows its last ", ".
 */
export function citiesByCountry(
  sums: Map<string, Sums>,
  countries: string[],
  perCountry: number,
): Map<string, Grouped[]> {
  const wanted = new Map<string, Grouped[]>(countries.map((c) => [c, []]));
  for (const [value, s] of sums) {
    const cut = value.lastIndexOf(', ');
    if (cut < 0) continue; // "Unknown"
    wanted.get(value.slice(cut + 2))?.push({ value: value.slice(0, cut), ...s });
  }
  for (const [country, list] of wanted) wanted.set(country, topOf(list, perCountry));
  return wanted;
}

export const totalsOf = (series: { visitors: number; views: number; signups: number }[]) => {
  const visitors = series.reduce((a, d) => a + d.visitors, 0);
  const signups = series.reduce((a, d) => a + d.signups, 0);
  return {
    visitors,
    views: series.reduce((a, d) => a + d.views, 0),
    signups,
    conversion: visitors === 0 ? 0 : signups / visitors,
  };
};
