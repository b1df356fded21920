import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import {
  type AudienceQuery,
  type AudienceReport,
  daysInPeriod,
  LIVE_WINDOW_MINUTES,
  type LiveVisitors,
  MAX_PERIOD_DAYS,
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

/**
 * Adds `more` into `into` (sums are additive over days). `into` owns its entries and they are
 * added to in place: one object per value however many blocks a range adds up, where an object
 * per value and block made a year's range (180,000 of them) pause for garbage collection.
 * Kept sums are only ever `more`, never `into`.
 */
function addInto(into: RangeSums, more: RangeSums): RangeSums {
  for (const d of TOP_DIMENSIONS) {
    const m = into[d];
    for (const [value, s] of more[d]) {
      const c = m.get(value);
      if (c) {
        c.visitors += s.visitors;
        c.views += s.views;
      } else m.set(value, { visitors: s.visitors, views: s.views });
    }
  }
  return into;
}

// Roll-ups of a day stop changing once it is over (the recorder writes within a second or two of
// a visit; five minutes leaves room for a slow flush), so their sums can be kept.
const CLOSE_AFTER_MS = 5 * 60_000;

/** The last day whose roll-ups no longer change at `now`. */
const lastClosedDay = (now: Date) => addDays(dayOf(new Date(now.getTime() - CLOSE_AFTER_MS)), -1);

// Closed days are kept in blocks: whole Monday–Sunday weeks, and single days at a range's edges.
// Ranges that overlap share their blocks, so when a day closes the 7-, 30- and 90-day periods
// need one new day from the database, not 127 days again. The job keeps every closed week a
// custom range can reach (MAX_PERIOD_DAYS back), so any range reads at most its 12 edge days from
// the database: a 90-day range is at most 13 kept weeks and 12 days, a 366-day one 52 and 12.
const WEEK_ORIGIN_MS = Date.parse('1970-01-05T00:00:00Z'); // a Monday
const weekdayOf = (day: string) => (((Math.round((Date.parse(`${day}T00:00:00Z`) - WEEK_ORIGIN_MS) / 86_400_000) % 7) + 7) % 7); // 0 = Monday

interface Block {
  from: string;
  to: string;
}
const isWeek = (b: Block) => b.from !== b.to;

function blocksOf(from: string, to: string): Block[] {
  const blocks: Block[] = [];
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

// Bounded by values held, so that no number of custom ranges can grow the process without limit.
// Blocks and whole ranges are kept apart so that operators' ranges never push out the weeks:
// a year of weeks at the bench's 3,456 values a week is 183,000 values (about 20 MB).
const MAX_BLOCK_VALUES = 400_000;
const MAX_RANGE_VALUES = 100_000;

interface Kept {
  blocks: LRUCache<string, RangeSums>;
  ranges: LRUCache<string, RangeSums>;
}
const kept = new WeakMap<Kysely<Database>, Kept>();

const valuesCache = (max: number) => new LRUCache<string, RangeSums>({ maxSize: max, sizeCalculation: (s) => Math.max(1, sizeOf(s)) });

function keptOf(db: Kysely<Database>): Kept {
  let k = kept.get(db);
  if (!k) {
    k = { blocks: valuesCache(MAX_BLOCK_VALUES), ranges: valuesCache(MAX_RANGE_VALUES) };
    kept.set(db, k);
  }
  return k;
}

const keyOf = (b: Block) => `${b.from} ${b.to}`;
/** The last day of the block a key names. */
const lastDayOfKey = (key: string) => key.slice(key.indexOf(' ') + 1);

function keep(cache: LRUCache<string, RangeSums>, key: string, sums: RangeSums): void {
  if (sizeOf(sums) <= cache.maxSize) cache.set(key, sums);
}

async function keptOrRead(cache: LRUCache<string, RangeSums>, key: string, read: () => Promise<RangeSums>): Promise<RangeSums> {
  const hit = cache.get(key);
  if (hit) return hit;
  const sums = await read();
  keep(cache, key, sums);
  return sums;
}

/**
 * A block's sums, kept. A week that has just closed was kept as single days while it was a
 * range's edge: those days are added up, and only the ones not kept are read.
 */
function blockSums(db: Kysely<Database>, blocks: LRUCache<string, RangeSums>, b: Block): Promise<RangeSums> {
  return keptOrRead(blocks, keyOf(b), async () => {
    const days = Array.from({ length: daysInPeriod(b.from, b.to) }, (_, i) => addDays(b.from, i));
    if (!isWeek(b) || !days.some((d) => blocks.has(keyOf({ from: d, to: d })))) return sumsFromDb(db, b.from, b.to);
    const total = emptySums();
    for (const d of days) addInto(total, await blockSums(db, blocks, { from: d, to: d }));
    return total;
  });
}

/**
 * A closed range's sums for a request: kept whole, else the kept blocks added up and each run of
 * blocks not kept read in one query. Reading a range in blocks costs more than in one query when
 * none is kept (measured: about 1.3× on SQLite, 1.8× on PostgreSQL, where one query scans in
 * parallel), so a range that shares no kept block is read whole.
 */
async function closedSums(db: Kysely<Database>, from: string, to: string): Promise<RangeSums> {
  const { blocks, ranges } = keptOf(db);
  return keptOrRead(ranges, keyOf({ from, to }), async () => {
    const sums = emptySums();
    let run: Block | undefined;
    const readRun = async () => {
      if (run) addInto(sums, await sumsFromDb(db, run.from, run.to));
      run = undefined;
    };
    for (const b of blocksOf(from, to)) {
      const hit = blocks.get(keyOf(b));
      if (hit) {
        await readRun();
        addInto(sums, hit);
      } else run = { from: run?.from ?? b.from, to: b.to };
    }
    await readRun();
    return sums;
  });
}

/** Totals per value over a period: closed days from the kept sums, the open days from the database. */
async function periodSums(db: Kysely<Database>, period: Period, now: Date): Promise<RangeSums> {
  const lastClosed = lastClosedDay(now);
  if (period.to <= lastClosed) return closedSums(db, period.from, period.to);
  if (period.from > lastClosed) return sumsFromDb(db, period.from, period.to);
  const closed = await closedSums(db, period.from, lastClosed);
  const open = await sumsFromDb(db, addDays(lastClosed, 1), period.to);
  // Onto a new sum: the kept sums must not take in the open days.
  return addInto(addInto(emptySums(), closed), open);
}

/**
 * Reads and keeps what no operator's report should pay for: every closed week a custom range can
 * reach, and the closed days of every preset period (the console's buttons), in blocks so that
 * tomorrow's ranges find them. The audience-sums job calls this at start and as days close.
 * Previous periods need no sums: the report compares their totals only, from the `total` rows.
 */
export async function keepClosedSums(db: Kysely<Database>, now: Date): Promise<void> {
  const { blocks } = keptOf(db);
  const today = dayOf(now);
  const lastClosed = lastClosedDay(now);
  const reach = addDays(today, -MAX_PERIOD_DAYS);
  // Blocks no range can reach any more go first, so that they never push out the ones that can.
  for (const key of [...blocks.keys()]) if (lastDayOfKey(key) < reach) blocks.delete(key);
  for (const b of blocksOf(reach, lastClosed)) if (isWeek(b)) await blockSums(db, blocks, b);
  for (const days of Object.values(presetDays)) {
    const from = addDays(today, 1 - days);
    if (from > lastClosed) continue;
    // Every block kept first, so that the range's total below is added up from them alone.
    for (const b of blocksOf(from, lastClosed)) await blockSums(db, blocks, b);
    await closedSums(db, from, lastClosed);
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
  kept.delete(db);
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
