import type { Kysely } from 'kysely';
import type { CountDimension, Database } from '../store/schema.ts';
import { addDays, isDay } from '../lib/days.ts';
import { signupsPerDay } from '../signups/queries.ts';

export interface DayPoint {
  day: string;
  visitors: number;
  views: number;
  signups: number;
}

export interface TopRow {
  value: string;
  visitors: number;
  views: number;
}

export interface AudienceReport {
  from: string;
  to: string;
  days: DayPoint[];
  totals: { visitors: number; views: number; signups: number; conversion: number };
  topPages: TopRow[];
  topReferrers: TopRow[];
  topCountries: TopRow[];
  topCities: TopRow[];
}

/**
 * What the console shows for a date range (inclusive, UTC days). Reads only the daily roll-ups and
 * the sign-ups' creation index, so its cost depends on the number of days and distinct values,
 * not on how many raw visits there were (docs/decisions/0007-analytics.md).
 * "Visitors" are daily uniques summed over the days of the range.
 */
export async function audienceReport(
  db: Kysely<Database>,
  range: { from: string; to: string },
  limit = 10,
): Promise<AudienceReport> {
  const { from, to } = range;
  if (!isDay(from) || !isDay(to) || from > to) throw new Error('The range must be two days, YYYY-MM-DD, from ≤ to.');

  const totals = await db
    .selectFrom('daily_counts')
    .select(['day', 'views', 'visitors'])
    .where('dimension', '=', 'total')
    .where('value', '=', '')
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
  const signupsByDay = await signupsPerDay(db, from, to);

  const byDay = new Map(totals.map((t) => [t.day, t]));
  const days: DayPoint[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const t = byDay.get(d);
    days.push({
      day: d,
      visitors: Number(t?.visitors ?? 0),
      views: Number(t?.views ?? 0),
      signups: signupsByDay.get(d) ?? 0,
    });
  }

  const top = async (dimension: CountDimension): Promise<TopRow[]> => {
    const rows = await db
      .selectFrom('daily_counts')
      .select((eb) => ['value', eb.fn.sum<number>('visitors').as('visitors'), eb.fn.sum<number>('views').as('views')])
      .where('dimension', '=', dimension)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy('value')
      .orderBy('visitors', 'desc')
      .orderBy('views', 'desc')
      .orderBy('value')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      value: dimension === 'referrer' && r.value === '' ? '(direct)' : r.value,
      visitors: Number(r.visitors),
      views: Number(r.views),
    }));
  };

  const sum = (k: 'visitors' | 'views' | 'signups') => days.reduce((a, d) => a + d[k], 0);
  const visitors = sum('visitors');
  const signupTotal = sum('signups');
  return {
    from,
    to,
    days,
    totals: {
      visitors,
      views: sum('views'),
      signups: signupTotal,
      conversion: visitors === 0 ? 0 : signupTotal / visitors,
    },
    topPages: await top('page'),
    topReferrers: await top('referrer'),
    topCountries: await top('country'),
    topCities: await top('city'),
  };
}
