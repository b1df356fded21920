import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { daysInPeriod, MAX_PERIOD_DAYS, presetDays } from '../../../shared/admin/audience.ts';
import { addDays, dayOf } from '../../lib/days.ts';
import type { CountDimension, Database } from '../../store/schema.ts';

// The Audience report's top lists, summed per value over a range of days from the daily roll-ups,
// and the sums of closed days kept so that no operator's report reads them twice (decision 0023).
// The query that builds the report is audience-overview.ts; the analytics plugin owns the kept
// sums (one AudienceSums per app) and the job that fills them.

export interface Sums {
  visitors: number;
  views: number;
}

type TopDimension = Exclude<CountDimension, 'total'>;
const TOP_DIMENSIONS: TopDimension[] = ['country', 'city', 'page', 'referrer'];
/** Per top-list dimension: each value's totals over a range of days. */
export type RangeSums = Record<TopDimension, Map<string, Sums>>;
const emptySums = (): RangeSums => ({ country: new Map(), city: new Map(), page: new Map(), referrer: new Map() });

/** A range of days, both ends included (a report's period). */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * Every top-list dimension's totals per value over a range of days, straight from the roll-ups,
 * in one query. Its cost grows with days × distinct values (90 days of 3,000 cities a day is
 * 270,000 rows), so closed days are summed once and kept (AudienceSums below); only the open
 * days' rows are read on every call.
 */
async function sumsFromDb(db: Kysely<Database>, from: string, to: string): Promise<RangeSums> {
  const rows = await db
    .selectFrom('daily_counts')
    .select((eb) => [
      'dimension',
      'value',
      eb.fn.sum<number>('visitors').as('visitors'),
      eb.fn.sum<number>('views').as('views'),
    ])
    .where('dimension', 'in', TOP_DIMENSIONS)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['dimension', 'value'])
    .execute();
  const sums = emptySums();
  for (const r of rows) {
    if (r.dimension !== 'total')
      sums[r.dimension].set(r.value, { visitors: Number(r.visitors), views: Number(r.views) });
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
const weekdayOf = (day: string) =>
  ((Math.round((Date.parse(`${day}T00:00:00Z`) - WEEK_ORIGIN_MS) / 86_400_000) % 7) + 7) % 7; // 0 = Monday

type Block = DayRange;
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

const valuesCache = (max: number) =>
  new LRUCache<string, RangeSums>({ maxSize: max, sizeCalculation: (s) => Math.max(1, sizeOf(s)) });

const keyOf = (b: Block) => `${b.from} ${b.to}`;
/** The last day of the block a key names. */
const lastDayOfKey = (key: string) => key.slice(key.indexOf(' ') + 1);

function keep(cache: LRUCache<string, RangeSums>, key: string, sums: RangeSums): void {
  if (sizeOf(sums) <= cache.maxSize) cache.set(key, sums);
}

async function keptOrRead(
  cache: LRUCache<string, RangeSums>,
  key: string,
  read: () => Promise<RangeSums>,
): Promise<RangeSums> {
  const hit = cache.get(key);
  if (hit) return hit;
  const sums = await read();
  keep(cache, key, sums);
  return sums;
}

/** The top lists' sums of one store, with those of closed days kept (bounded, in memory). */
export class AudienceSums {
  private blocks = valuesCache(MAX_BLOCK_VALUES);
  private ranges = valuesCache(MAX_RANGE_VALUES);

  constructor(private readonly db: Kysely<Database>) {}

  /** Totals per value over a period: closed days from the kept sums, the open days from the database. */
  async periodSums(period: DayRange, now: Date): Promise<RangeSums> {
    const lastClosed = lastClosedDay(now);
    if (period.to <= lastClosed) return this.closedSums(period.from, period.to);
    if (period.from > lastClosed) return sumsFromDb(this.db, period.from, period.to);
    const closed = await this.closedSums(period.from, lastClosed);
    const open = await sumsFromDb(this.db, addDays(lastClosed, 1), period.to);
    // Onto a new sum: the kept sums must not take in the open days.
    return addInto(addInto(emptySums(), closed), open);
  }

  /**
   * Reads and keeps what no operator's report should pay for: every closed week a custom range
   * can reach, and the closed days of every preset period (the console's buttons), in blocks so
   * that tomorrow's ranges find them. The audience-sums job calls this at start and as days close.
   * Previous periods need no sums: the report compares their totals only, from the `total` rows.
   */
  async keepClosed(now: Date): Promise<void> {
    const today = dayOf(now);
    const lastClosed = lastClosedDay(now);
    const reach = addDays(today, -MAX_PERIOD_DAYS);
    // Blocks no range can reach any more go first, so that they never push out the ones that can.
    for (const key of [...this.blocks.keys()]) if (lastDayOfKey(key) < reach) this.blocks.delete(key);
    for (const b of blocksOf(reach, lastClosed)) if (isWeek(b)) await this.blockSums(b);
    for (const days of Object.values(presetDays)) {
      const from = addDays(today, 1 - days);
      if (from > lastClosed) continue;
      // Every block kept first, so that the range's total below is added up from them alone.
      for (const b of blocksOf(from, lastClosed)) await this.blockSums(b);
      await this.closedSums(from, lastClosed);
    }
  }

  /** Forgets every kept sum (the bench and the tests measure the cold read with it). */
  forget(): void {
    this.blocks.clear();
    this.ranges.clear();
  }

  /**
   * A block's sums, kept. A week that has just closed was kept as single days while it was a
   * range's edge: those days are added up, and only the ones not kept are read.
   */
  private blockSums(b: Block): Promise<RangeSums> {
    return keptOrRead(this.blocks, keyOf(b), async () => {
      const days = Array.from({ length: daysInPeriod(b.from, b.to) }, (_, i) => addDays(b.from, i));
      if (!isWeek(b) || !days.some((d) => this.blocks.has(keyOf({ from: d, to: d }))))
        return sumsFromDb(this.db, b.from, b.to);
      const total = emptySums();
      for (const d of days) addInto(total, await this.blockSums({ from: d, to: d }));
      return total;
    });
  }

  /**
   * A closed range's sums for a request: kept whole, else the kept blocks added up and each run
   * of blocks not kept read in one query. Reading a range in blocks costs more than in one query
   * when none is kept (measured: about 1.3× on SQLite, 1.8× on PostgreSQL, where one query scans
   * in parallel), so a range that shares no kept block is read whole.
   */
  private closedSums(from: string, to: string): Promise<RangeSums> {
    return keptOrRead(this.ranges, keyOf({ from, to }), async () => {
      const sums = emptySums();
      let run: Block | undefined;
      const readRun = async () => {
        if (run) addInto(sums, await sumsFromDb(this.db, run.from, run.to));
        run = undefined;
      };
      for (const b of blocksOf(from, to)) {
        const hit = this.blocks.get(keyOf(b));
        if (hit) {
          await readRun();
          addInto(sums, hit);
        } else run = { from: run?.from ?? b.from, to: b.to };
      }
      await readRun();
      return sums;
    });
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

// The console's audience route reaches the report with the store alone (admin/audience/audience-routes.ts
// calls audienceOverview(db, …)): the analytics plugin makes its AudienceSums findable by its
// store here while it is open. It is a directory, not the cache: the plugin creates the sums,
// fills them from its job and lets them go at close.
const byStore = new WeakMap<Kysely<Database>, AudienceSums>();

/** Called by the analytics plugin: its sums answer reports on `db` until the returned function runs. */
export function offerAudienceSums(db: Kysely<Database>, sums: AudienceSums): () => void {
  byStore.set(db, sums);
  return () => {
    if (byStore.get(db) === sums) byStore.delete(db);
  };
}

/** The sums an app keeps for `db`; without one (a script, a unit test), sums that keep nothing past the call. */
export function audienceSumsOf(db: Kysely<Database>): AudienceSums {
  return byStore.get(db) ?? new AudienceSums(db);
}
