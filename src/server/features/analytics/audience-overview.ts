import type { Kysely } from 'kysely';
import { locales } from '../../../shared/locales.ts';
import {
  type AudienceQuery,
  type AudienceReport,
  LIVE_WINDOW_MINUTES,
  type LiveVisitors,
} from '../../../shared/admin/audience.ts';
import { addDays } from '../../lib/days.ts';
import type { Database } from '../../store/schema.ts';
import { signupsPerDay, signupsPerLocale } from '../signups/index.ts';
import { signupsByInvite } from '../referrals/index.ts';
import { type Period, resolvePeriod } from './audience-period.ts';
import { citiesByCountry, grouped, topOf, totalsOf } from './audience-ranking.ts';
import { type AudienceSums, audienceSumsOf, type Sums } from './audience-sums.ts';
import { localeOfPage } from './page-locale.ts';

// The Audience screen, in the spirit of Plausible and Umami: a period beside the one before it,
// a per-day series and top lists. Everything but the live count reads the daily roll-ups
// (daily_counts, daily_signups), so its cost grows with days × distinct values, never with raw
// visits (docs/decisions/0007-analytics.md, 0014-console-queries.md). The top lists' sums, and
// the kept sums of closed days, are audience-sums.ts; the periods audience-period.ts; ranking and
// totals audience-ranking.ts.

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

  // Visits per locale from the pages' sums (each visitor counted once a day, by the page of
  // their first visit, as for the pages themselves: page-locale.ts); sign-ups from the list.
  const visitsByLocale = new Map<string, Sums>();
  for (const [page, s] of sums.page) {
    const l = localeOfPage(page);
    const had = visitsByLocale.get(l) ?? { visitors: 0, views: 0 };
    visitsByLocale.set(l, { visitors: had.visitors + s.visitors, views: had.views + s.views });
  }
  const signupsByLocale = await signupsPerLocale(db, period.from, period.to);
  const localeRows = [...new Set<string>([...locales, ...signupsByLocale.keys()])].map((locale) => ({
    locale,
    visitors: visitsByLocale.get(locale)?.visitors ?? 0,
    views: visitsByLocale.get(locale)?.views ?? 0,
    signups: signupsByLocale.get(locale) ?? 0,
  }));

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
    referrers: referrers.map((r) => ({
      host: r.value === '' ? '(direct)' : r.value,
      visitors: r.visitors,
      views: r.views,
    })),
    locales: localeRows,
    invites: await signupsByInvite(db, period.from, period.to),
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
    .select((eb) => [
      eb.fn.count<number>('visitor_hash').distinct().as('visitors'),
      eb.fn.countAll<number>().as('views'),
    ])
    .where('at', '>=', since)
    .executeTakeFirstOrThrow();
  return { since, visitors: Number(row.visitors), views: Number(row.views) };
}
