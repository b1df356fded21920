import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
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

interface Sums {
  visitors: number;
  views: number;
}
type Grouped = Sums & { value: string };

type TopDimension = Exclude<CountDimension, 'total'>;
const TOP_DIMENSIONS: TopDimension[] = ['country', 'city', 'page', 'referrer'];
/** Per top-list dimension: each value's totals over a range of days. */
type RangeSums = Record<TopDimension, Map<string, Sums>>;
const emptySums = (): RangeSums => ({ country: new Map(), city: new Map(), page: new Map(), referrer: new Map() });

/**
 * Every top-list dimension's totals per value over a range of days, straight from the roll-ups,
 * in one query. Its cost grows with days × distinct values (90 days of 3,000 cities a day is
 * 270,000 rows), so closed days are summed once and kept (closedSums below); only the open days'
 * rows are read on every call.
 */
async function sumsFromDb(db: Kysely<Database>, from: string, to: string): Promise<RangeSums> {
  const rows = await db
    .selectFrom('daily_counts')
    .select((eb) => ['dimension', 'value', eb.fn.sum<number>('visitors').as('visitors'), eb.fn.sum<number>('views').as('views')])
    .where('dimension', 'in', TOP_DIMENSIONS)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['dimension', 'value'])
    .execute();
  const sums = emptySums();
  for (const r of rows) {
    if (r.dimension !== 'total') sums[r.dimension].set(r.value, { visitors: Number(r.visitors), views: Number(r.views) });
  }
  return sums;
}

const sizeOf = (sums: RangeSums) => TOP_DIMENSIONS.reduce((n, d) => n + sums[d].size, 0);

/** Adds `more` into `into` (sums are additive over days). */
function addInto(into: RangeSums, more: RangeSums): RangeSums {
  for (const d of TOP_DIMENSIONS) {
    const m = into[d];
    for (const [value, s] of more[d]) {
      const c = m.get(value);
      m.set(value, c ? { visitors: c.visitors + s.visitors, views: c.views + s.views } : s);
    }
  }
  return into;
}

// Roll-ups of a day stop changing once it is over (the recorder writes within a second or two of
// a visit; five minutes leaves room for a slow flush), so their sums can be kept. Bounded by
// values held, so a year of custom ranges cannot grow the process without limit.
const CLOSE_AFTER_MS = 5 * 60_000;
const MAX_CACHED_VALUES = 200_000;
const caches = new WeakMap<Kysely<Database>, LRUCache<string, RangeSums>>();

/** The last day whose roll-ups no longer change at `now`. */
const lastClosedDay = (now: Date) => addDays(dayOf(new Date(now.getTime() - CLOSE_AFTER_MS)), -1);

// Closed days are kept in blocks: whole Monday–Sunday weeks, and single days at a range's edges.
// Ranges that overlap share their blocks, so when a day closes the 7-, 30- and 90-day periods
// need one new day from the database, not 127 days again. A 90-day range is at most 13 weeks and
// 12 single days.
const WEEK_ORIGIN_MS = Date.parse('1970-01-05T00:00:00Z'); // a Monday
const weekdayOf = (day: string) => (((Math.round((Date.parse(`${day}T00:00:00Z`) - WEEK_ORIGIN_MS) / 86_400_000) % 7) + 7) % 7); // 0 = Monday

function blocksOf(from: string, to: string): { from: string; to: string }[] {
  const blocks: { from: string; to: string }[] = [];
  let day = from;
  while (day <= to) {
    const weekEnd = addDays(day, 6);
    if (weekdayOf(day) === 0 && weekEnd <= to) {
      blocks.push({ from: day, to: weekEnd });
      day = addDays(weekEnd, 1);
    } else {
      blocks.push({ from: day, to: day });
      day = addDays(day, 1);
    }
  }
  return blocks;
}

function cacheOf(db: Kysely<Database>): LRUCache<string, RangeSums> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LRUCache({ maxSize: MAX_CACHED_VALUES, sizeCalculation: (s) => Math.max(1, sizeOf(s)) });
    caches.set(db, cache);
  }
  return cache;
}

const keyOf = (from: string, to: string) => `${from} ${to}`;

async function keptOrRead(cache: LRUCache<string, RangeSums>, key: string, read: () => Promise<RangeSums>): Promise<RangeSums> {
  const hit = cache.get(key);
  if (hit) return hit;
  const sums = await read();
  if (sizeOf(sums) <= MAX_CACHED_VALUES) cache.set(key, sums);
  return sums;
}

/**
 * A block's sums from the database. A week that has just closed was kept as single days while it
 * was a range's edge: those days are added up, and only the ones not kept are read.
 */
async function weekSums(db: Kysely<Database>, cache: LRUCache<string, RangeSums>, from: string, to: string): Promise<RangeSums> {
  const days = Array.from({ length: daysInPeriod(from, to) }, (_, i) => addDays(from, i));
  if (days.length === 1 || !days.some((d) => cache.has(keyOf(d, d)))) return sumsFromDb(db, from, to);
  const total = emptySums();
  for (const d of days) addInto(total, await keptOrRead(cache, keyOf(d, d), () => sumsFromDb(db, d, d)));
  return total;
}

/**
 * A closed range's sums: kept whole, else added up from its blocks (each kept, or read once).
 * Reading a range in blocks costs more than in one query when none is kept (measured: about 1.3×
 * on SQLite, 1.8× on PostgreSQL, where one query scans in parallel), so a request for a range
 * that shares no kept block reads it whole. The audience-sums job asks for blocks (`inBlocks`),
 * also for a range a request kept whole, so that tomorrow's ranges find them.
 */
async function closedSums(db: Kysely<Database>, from: string, to: string, inBlocks = false): Promise<RangeSums> {
  const cache = cacheOf(db);
  const blocks = blocksOf(from, to);
  const whole = cache.get(keyOf(from, to));
  if (whole && (!inBlocks || blocks.every((b) => cache.has(keyOf(b.from, b.to))))) return whole;
  const only = blocks.length === 1 ? blocks[0] : undefined;
  let sums: RangeSums;
  if (only) sums = await sumsFromDb(db, only.from, only.to);
  else if (!inBlocks && !blocks.some((b) => cache.has(keyOf(b.from, b.to)))) sums = await sumsFromDb(db, from, to);
  else {
    sums = emptySums();
    for (const b of blocks) addInto(sums, await keptOrRead(cache, keyOf(b.from, b.to), () => weekSums(db, cache, b.from, b.to)));
  }
  if (sizeOf(sums) <= MAX_CACHED_VALUES) cache.set(keyOf(from, to), sums);
  return sums;
}

/** Totals per value over a period: closed days from the kept sums, the open days from the database. */
async function periodSums(db: Kysely<Database>, period: Period, now: Date): Promise<RangeSums> {
  const lastClosed = lastClosedDay(now);
  if (period.to <= lastClosed) return closedSums(db, period.from, period.to);
  if (period.from > lastClosed) return sumsFromDb(db, period.from, period.to);
  const closed = await closedSums(db, period.from, lastClosed);
  const open = await sumsFromDb(db, addDays(lastClosed, 1), period.to);
  // Onto a copy: the kept sums must not take in the open days.
  const copy: RangeSums = { country: new Map(closed.country), city: new Map(closed.city), page: new Map(closed.page), referrer: new Map(closed.referrer) };
  return addInto(copy, open);
}

/**
 * Reads and keeps the closed days' sums of every preset period (the console's buttons), so no
 * operator's report pays for them: the audience-sums job calls this at start and as days close.
 * Previous periods need no sums: the report compares their totals only, from the `total` rows.
 */
export async function keepPresetSums(db: Kysely<Database>, now: Date): Promise<void> {
  const lastClosed = lastClosedDay(now);
  for (const days of Object.values(presetDays)) {
    const from = addDays(dayOf(now), 1 - days);
    if (from <= lastClosed) await closedSums(db, from, lastClosed, true);
  }
}

/**
 * When the closed part of the presets next changes: at midnight UTC (the periods move on a day)
 * and CLOSE_AFTER_MS later (yesterday closes). The job runs just after each.
 */
export function nextPresetChange(now: Date): Date {
  const midnight = Date.parse(`${addDays(dayOf(now), 1)}T00:00:00Z`);
  const closing = Date.parse(`${dayOf(now)}T00:00:00Z`) + CLOSE_AFTER_MS;
  return new Date(now.getTime() < closing ? closing : midnight);
}

/** Forgets every kept sum of a store (the bench measures the cold read with it). */
export function forgetKeptSums(db: Kysely<Database>): void {
  caches.get(db)?.clear();
}

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

  const sums = await periodSums(db, period, now);
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
