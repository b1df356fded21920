import type { Kysely, Transaction } from 'kysely';
import type { CountDimension, Database, VisitsTable } from '../../store/schema.ts';
import { DropCounts, writeDrops, type DropReason } from './drop-counts.ts';

export type VisitRow = VisitsTable;

/** Referrers beyond this many distinct hosts in a day are counted as this. */
const OTHER_REFERRER = '(other)';

/** The bounds (docs/decisions/0012-limits-logs-and-beacon-budget.md). */
export const recorderLimits = {
  /** Visits held in memory at most, buffered or being written: about 10 MB. */
  maxRows: 20_000,
  /** Distinct referrer hosts counted by name per day (all instances together). */
  referrerHostsPerDay: 200,
} as const;

const CHUNK = 250; // rows per INSERT: 14 columns × 250 stays far below SQLite's variable limit

// Between statements of a flush, let waiting requests run: with a synchronous driver a big flush
// would otherwise hold the event loop for tens of milliseconds (the beacon benchmark's p99).
const breathe = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Buffers visits in memory and writes them once a second (or sooner when many arrive): raw rows,
 * the per-day set of visitor hashes, and the daily roll-ups, in one transaction. A crash loses at
 * most the last second of visit counts; sign-ups never pass through here.
 */
export class VisitRecorder {
  private buffer: VisitRow[] = [];
  /** Rows buffered plus rows in batches not yet written: what the row cap bounds. */
  private held = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  flushes = 0;
  /** What was let go (here: rows over the cap; the route and filter add theirs), written with each flush. */
  readonly drops: DropCounts;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly opts: {
      flushMs?: number;
      maxBuffer?: number;
      maxRows?: number;
      referrerHostsPerDay?: number;
      onError?: (e: unknown) => void;
      /** Visits committed to the store, after each flush that wrote some. */
      onWritten?: (n: number) => void;
      /** Each drop as it is counted (see DropCounts). */
      onDrop?: (reason: DropReason, n: number) => void;
    } = {},
  ) {
    // A drop schedules a flush as a visit does: an instance whose every beacon is over budget (a
    // flood from one network) would otherwise hold its drop counts until its next counted visit.
    // Not a failed write's own drops: those wait for the next visit, so a store that is down is
    // not asked again every second for counts alone.
    this.drops = new DropCounts((reason, n) => {
      opts.onDrop?.(reason, n);
      if (reason !== 'visit-write-failed') this.flushSoon();
    });
  }

  /** A flush within flushMs, unless one is set already. */
  private flushSoon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.opts.flushMs ?? 1000);
    this.timer.unref();
  }

  /** Buffers a visit; false (and counted as dropped) when the cap on held rows is reached. */
  add(row: VisitRow): boolean {
    if (this.held >= (this.opts.maxRows ?? recorderLimits.maxRows)) {
      this.drops.add('visit-buffer-full', row.day);
      return false;
    }
    this.held++;
    this.buffer.push(row);
    if (this.buffer.length >= (this.opts.maxBuffer ?? 2000)) void this.flush();
    else this.flushSoon();
    return true;
  }

  /** Writes everything buffered so far; resolves when it is committed. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    // One flush at a time, in order, so roll-up increments never race each other.
    this.flushing = this.flushing.then(() =>
      batch.length === 0 && this.drops.size === 0
        ? undefined
        : this.write(batch)
            .catch((error: unknown) => {
              // Counts are not worth a crash or an endless retry; say so and move on.
              this.opts.onError?.(error);
            })
            .finally(() => {
              this.held -= batch.length;
            }),
    );
    return this.flushing;
  }

  /**
   * Referrer hosts are capped per day, so forged beacons cannot fill the table with spam hosts:
   * the first `referrerHostsPerDay` distinct hosts of a day (across instances: the day's roll-up
   * rows are the record) keep their name, later new ones become "(other)", in the raw rows too.
   */
  private async capReferrers(trx: Transaction<Database>, batch: VisitRow[]): Promise<VisitRow[]> {
    const cap = this.opts.referrerHostsPerDay ?? recorderLimits.referrerHostsPerDay;
    const named = (host: string) => host !== '' && host !== OTHER_REFERRER;
    const days = [...new Set(batch.filter((v) => named(v.referrer_host)).map((v) => v.day))];
    if (days.length === 0) return batch;
    const known = new Map<string, Set<string>>(days.map((d) => [d, new Set<string>()]));
    const rows = await trx
      .selectFrom('daily_counts')
      .select(['day', 'value'])
      .where('dimension', '=', 'referrer')
      .where('day', 'in', days)
      .execute();
    for (const r of rows) if (named(r.value)) known.get(r.day)?.add(r.value);
    return batch.map((v) => {
      const hosts = known.get(v.day);
      if (!hosts || !named(v.referrer_host) || hosts.has(v.referrer_host)) return v;
      if (hosts.size < cap) {
        hosts.add(v.referrer_host);
        return v;
      }
      return { ...v, referrer_host: OTHER_REFERRER };
    });
  }

  private async write(rawBatch: VisitRow[]): Promise<void> {
    this.flushes++;
    const drops = this.drops.take();
    try {
      await this.db.transaction().execute(async (trx) => {
        await writeDrops(trx, drops);
        if (rawBatch.length > 0) await this.writeVisits(trx, await this.capReferrers(trx, rawBatch));
      });
    } catch (error) {
      // The visits are let go (see flush); the counts of what was dropped are kept for next time.
      this.drops.restore(drops);
      for (const v of rawBatch) this.drops.add('visit-write-failed', v.day);
      throw error;
    }
    if (rawBatch.length > 0) this.opts.onWritten?.(rawBatch.length);
  }

  private async writeVisits(trx: Transaction<Database>, batch: VisitRow[]): Promise<void> {
    for (let i = 0; i < batch.length; i += CHUNK) {
      await trx
        .insertInto('visits')
        .values(batch.slice(i, i + CHUNK))
        .execute();
      await breathe();
    }

    // Which visitors are new today: the insert returns only rows that were not there yet.
    const pairs = new Map<string, { day: string; visitor_hash: string }>();
    for (const v of batch) pairs.set(`${v.day} ${v.visitor_hash}`, { day: v.day, visitor_hash: v.visitor_hash });
    const fresh = new Set<string>();
    const list = [...pairs.values()];
    for (let i = 0; i < list.length; i += CHUNK) {
      const inserted = await trx
        .insertInto('daily_visitors')
        .values(list.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns(['day', 'visitor_hash']).doNothing())
        .returning(['day', 'visitor_hash'])
        .execute();
      for (const r of inserted) fresh.add(`${r.day} ${r.visitor_hash}`);
      await breathe();
    }

    // Roll-ups: a view for every visit; a visitor once per day, credited to the page,
    // referrer and place of their first visit that day.
    const counts = new Map<
      string,
      { day: string; dimension: CountDimension; value: string; views: number; visitors: number }
    >();
    const bump = (day: string, dimension: CountDimension, value: string, visitor: boolean) => {
      const key = `${dimension} ${day} ${value}`;
      const c = counts.get(key) ?? { day, dimension, value, views: 0, visitors: 0 };
      c.views++;
      if (visitor) c.visitors++;
      counts.set(key, c);
    };
    for (const v of batch) {
      const key = `${v.day} ${v.visitor_hash}`;
      const isNew = fresh.delete(key);
      bump(v.day, 'total', '', isNew);
      bump(v.day, 'page', v.path, isNew);
      bump(v.day, 'referrer', v.referrer_host, isNew);
      bump(v.day, 'country', v.country, isNew);
      bump(v.day, 'city', v.city === 'Unknown' ? 'Unknown' : `${v.city}, ${v.country}`, isNew);
    }
    const rows = [...counts.values()];
    for (let i = 0; i < rows.length; i += CHUNK) {
      await trx
        .insertInto('daily_counts')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.columns(['dimension', 'day', 'value']).doUpdateSet((eb) => ({
            views: eb('daily_counts.views', '+', eb.ref('excluded.views')),
            visitors: eb('daily_counts.visitors', '+', eb.ref('excluded.visitors')),
          })),
        )
        .execute();
    }
  }
}
