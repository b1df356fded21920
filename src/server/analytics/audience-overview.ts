import type { Kysely } from 'kysely';
import {
  type AudienceQuery,
  type AudienceReport,
  daysInPeriod,
  LIVE_WINDOW_MINUTES,
  type LiveVisitors,
  presetDays,
} from '../../shared/admin/audience.ts';
import { addDays, dayOf } from '../lib/days.ts';
import type { Database } from '../store/schema.ts';
import { signupsPerDay } from '../signups/queries.ts';
import { type AudienceSums, audienceSumsOf, type Sums } from './audience-sums.ts';

// The Audience screen, in the spirit of Plausible and Umami: a period beside the one before it,
// a per-day series and top lists. Everything but the live count reads the daily roll-ups
// (daily_counts, daily_signups), so its cost grows with days × distinct values, never with raw
// visits (docs/decisions/0007-analytics.md, 0014-console-queries.md). The top lists' sums, and
// the kept sums of closed days, are audience-sums.ts.

export interface Period {
  from: string;
  to: string;
  days: number;
}

/** The period a query asks for (presets end today, UTC) and the one of the same length before it. */
export function resolvePeriod(query: AudienceQuery, now: Date): { period: Period; previous: Period } {
  const today = dayOf(now);
  let from: string;
  let to: string;
  if (query.period === 'custom') {
    // The schema has checked both are there, in order and at most MAX_PERIOD_DAYS apart.
    from = query.from ?? today;
    to = query.to ?? today;
  } else {
    to = today;
    from = addDays(today, 1 - presetDays[query.period]);
  }
  const days = daysInPeriod(from, to);
  return { period: { from, to, days }, previous: { from: addDays(from, -days), to: addDays(from, -1), days } };
}

type Grouped = Sums & { value: string };

/** By visitors, then views, then value: the order of every top list. */
const rankOrder = (a: Grouped, b: Grouped) =>
  b.visitors - a.visitors || b.views - a.views || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/** The first `limit` in rank order, without sorting every value (there may be tens of thousands). */
function topOf(entries: Iterable<Grouped>, limit: number): Grouped[] {
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

function* grouped(sums: Map<string, Sums>): Iterable<Grouped> {
  for (const [value, s] of sums) yield { value, ...s };
}

/**
 * The top `perCountry` cities of each country. City roll-ups are keyed "City, CC"
 * (visit-recorder.ts), so a city's country is what follows its last ", ".
 */
function citiesByCountry(sums: Map<string, Sums>, countries: string[], perCountry: number): Map<string, Grouped[]> {
  const wanted = new Map<string, Grouped[]>(countries.map((c) => [c, []]));
  for (const [value, s] of sums) {
    const cut = value.lastIndexOf(', ');
    if (cut < 0) continue; // "Unknown"
    wanted.get(value.slice(cut + 2))?.push({ value: value.slice(0, cut), ...s });
  }
  for (const [country, list] of wanted) wanted.set(country, topOf(list, perCountry));
  return wanted;
}

const totalsOf = (series: { visitors: number; views: number; signups: number }[]) => {
  const visitors = series.reduce((a, d) => a + d.visitors, 0);
  const signups = series.reduce((a, d) => a + d.signups, 0);
  return { visitors, views: series.reduce((a, d) => a + d.views, 0), signups, conversion: visitors === 0 ? 0 : signups / visitors };
};

/**
 * The Audience report for a (validated) query: `limit` rows per top list, `citiesPerCountry`
 * cities each. The top lists come from `sums`, by default the ones the app keeps for `db`.
 */
export async function audienceOverview(
  db: Kysely<Database>,
  query: AudienceQuery,
  now: Date,
  opts: { limit?: number; citiesPerCountry?: number; sums?: AudienceSums } = {},
): Promise<AudienceReport> {
  const limit = opts.limit ?? 10;
  const { period, previous } = resolvePeriod(query, now);

  // Both periods' daily totals in one range read, and their sign-ups from the roll-up.
  const totals = await db
    .selectFrom('daily_counts')
    .select(['day', 'views', 'visitors'])
    .where('dimension', '=', 'total')
    .where('day', '>=', previous.from)
    .where('day', '<=', period.to)
    .where('value', '=', '')
    .execute();
  const byDay = new Map(totals.map((t) => [t.day, t]));
  const signups = await signupsPerDay(db, previous.from, period.to);
  const seriesOf = (p: Period) =>
    Array.from({ length: p.days }, (_, i) => {
      const day = addDays(p.from, i);
      const t = byDay.get(day);
      return { day, visitors: Number(t?.visitors ?? 0), views: Number(t?.views ?? 0), signups: signups.get(day) ?? 0 };
    });
  const series = seriesOf(period);

  const sums = await (opts.sums ?? audienceSumsOf(db)).periodSums(period, now);
  const countries = topOf(grouped(sums.country), limit);
  const cities = citiesByCountry(
    sums.city,
    countries.map((c) => c.value),
    opts.citiesPerCountry ?? 5,
  );
  const pages = topOf(grouped(sums.page), limit);
  const referrers = topOf(grouped(sums.referrer), limit);

  return {
    period,
    previousPeriod: previous,
    totals: totalsOf(series),
    previousTotals: totalsOf(seriesOf(previous)),
    series,
    countries: countries.map((c) => ({
      country: c.value,
      visitors: c.visitors,
      views: c.views,
      cities: (cities.get(c.value) ?? []).map((x) => ({ city: x.value, visitors: x.visitors, views: x.views })),
    })),
    pages: pages.map((p) => ({ path: p.value, visitors: p.visitors, views: p.views })),
    referrers: referrers.map((r) => ({ host: r.value === '' ? '(direct)' : r.value, visitors: r.visitors, views: r.views })),
  };
}

/**
 * Distinct visitors (and views) in the last 30 minutes, from the raw visits on their `at` index.
 * Visits reach the table within a second (the recorder's flush). A visitor whose visits straddle
 * midnight UTC counts twice: their hash changes with the day's salt.
 */
export async function liveVisitors(db: Kysely<Database>, now: Date): Promise<LiveVisitors> {
  const since = new Date(now.getTime() - LIVE_WINDOW_MINUTES * 60_000).toISOString();
  const row = await db
    .selectFrom('visits')
    .select((eb) => [eb.fn.count<number>('visitor_hash').distinct().as('visitors'), eb.fn.countAll<number>().as('views')])
    .where('at', '>=', since)
    .executeTakeFirstOrThrow();
  return { since, visitors: Number(row.visitors), views: Number(row.views) };
}
