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
import type { CountDimension, Database } from '../store/schema.ts';
import { signupsPerDay } from '../signups/queries.ts';

// The Audience screen, in the spirit of Plausible and Umami: a period beside the one before it,
// a per-day series and top lists. Everything but the live count reads the daily roll-ups
// (daily_counts, daily_signups), so its cost grows with days × distinct values, never with raw
// visits (docs/decisions/0007-analytics.md, 0014-console-queries.md).

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

interface Grouped {
  value: string;
  visitors: number;
  views: number;
}

/** A dimension's values over a period by visitors (then views, then name), at most `limit`. */
async function top(db: Kysely<Database>, dimension: CountDimension, period: Period, limit: number): Promise<Grouped[]> {
  const rows = await db
    .selectFrom('daily_counts')
    .select((eb) => ['value', eb.fn.sum<number>('visitors').as('visitors'), eb.fn.sum<number>('views').as('views')])
    .where('dimension', '=', dimension)
    .where('day', '>=', period.from)
    .where('day', '<=', period.to)
    .groupBy('value')
    .orderBy('visitors', 'desc')
    .orderBy('views', 'desc')
    .orderBy('value')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ value: r.value, visitors: Number(r.visitors), views: Number(r.views) }));
}

/**
 * The top `perCountry` cities of every country over a period. City roll-ups are keyed
 * "City, CC" (visit-recorder.ts), so the country is the value's last two characters; the ranking
 * within each country happens in the database, which returns only the rows shown.
 */
async function topCitiesByCountry(db: Kysely<Database>, period: Period, countries: string[], perCountry: number) {
  const byCountry = new Map<string, Grouped[]>(countries.map((c) => [c, []]));
  if (countries.length === 0) return byCountry;
  const grouped = db
    .selectFrom('daily_counts')
    .select((eb) => ['value', eb.fn.sum<number>('visitors').as('visitors'), eb.fn.sum<number>('views').as('views')])
    .where('dimension', '=', 'city')
    .where('day', '>=', period.from)
    .where('day', '<=', period.to)
    .where('value', '<>', 'Unknown')
    .groupBy('value')
    .as('g');
  const ranked = db
    .selectFrom(grouped)
    .select((eb) => [
      'g.value',
      'g.visitors',
      'g.views',
      eb.fn('substr', ['g.value', eb(eb.fn('length', ['g.value']), '-', 1)]).as('country'),
    ])
    .select((eb) =>
      eb.fn
        .agg<number>('row_number')
        .over((o) =>
          o
            .partitionBy(eb.fn('substr', ['g.value', eb(eb.fn('length', ['g.value']), '-', 1)]) as never)
            .orderBy('g.visitors', 'desc')
            .orderBy('g.views', 'desc')
            .orderBy('g.value'),
        )
        .as('rank'),
    )
    .as('r');
  const rows = await db
    .selectFrom(ranked)
    .select(['r.value', 'r.visitors', 'r.views', 'r.country'])
    .where('r.rank', '<=', perCountry)
    .where('r.country', 'in', countries)
    .orderBy('r.country')
    .orderBy('r.rank')
    .execute();
  for (const r of rows) {
    const suffix = `, ${String(r.country)}`;
    if (!r.value.endsWith(suffix)) continue; // a country code that is not two letters: not shown
    byCountry.get(String(r.country))?.push({ value: r.value.slice(0, -suffix.length), visitors: Number(r.visitors), views: Number(r.views) });
  }
  return byCountry;
}

const totalsOf = (series: { visitors: number; views: number; signups: number }[]) => {
  const visitors = series.reduce((a, d) => a + d.visitors, 0);
  const signups = series.reduce((a, d) => a + d.signups, 0);
  return { visitors, views: series.reduce((a, d) => a + d.views, 0), signups, conversion: visitors === 0 ? 0 : signups / visitors };
};

/** The Audience report for a (validated) query: `limit` rows per top list, `citiesPerCountry` cities each. */
export async function audienceOverview(
  db: Kysely<Database>,
  query: AudienceQuery,
  now: Date,
  opts: { limit?: number; citiesPerCountry?: number } = {},
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

  const countries = await top(db, 'country', period, limit);
  const cities = await topCitiesByCountry(
    db,
    period,
    countries.map((c) => c.value),
    opts.citiesPerCountry ?? 5,
  );
  const pages = await top(db, 'page', period, limit);
  const referrers = await top(db, 'referrer', period, limit);

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
