import type { Transaction } from 'kysely';
import type { Database } from '../../store/schema.ts';

/** Why a visit, or a cached verdict about one, was let go (docs/decisions/0012). */
export type DropReason =
  /** A client past its counted visits for the minute (VisitBudget). */
  | 'visit-over-budget'
  /** The write buffer was full (the database is slow or down). */
  | 'visit-buffer-full'
  /** A flush failed; its visits were let go rather than retried for ever. */
  | 'visit-write-failed'
  /** A bot verdict pushed out of its byte-bounded cache (many distinct user agents). */
  | 'bot-cache-evicted';

/**
 * What the analytics let go, counted in memory and written to `abuse_counters` (day × reason,
 * the table the sign-up traps count in, which the operators' console will show) with the next
 * visit flush: one upsert per reason and day, however big the flood.
 */
export class DropCounts {
  private counts = new Map<string, DropRow>();

  /** `onDrop` hears of each drop once, as it happens (not again when a failed write restores it). */
  constructor(private readonly onDrop?: (reason: DropReason, n: number) => void) {}

  add(reason: DropReason, day: string, n = 1): void {
    this.tally(reason, day, n);
    this.onDrop?.(reason, n);
  }

  private tally(reason: DropReason, day: string, n: number): void {
    const key = `${day} ${reason}`;
    const entry = this.counts.get(key) ?? { day, reason, count: 0 };
    entry.count += n;
    this.counts.set(key, entry);
  }

  get size(): number {
    return this.counts.size;
  }

  /** Everything counted so far, emptied: written with the next flush, or `restore`d if that fails. */
  take(): DropRow[] {
    const rows = [...this.counts.values()];
    this.counts = new Map();
    return rows;
  }

  restore(rows: readonly DropRow[]): void {
    for (const r of rows) this.tally(r.reason, r.day, r.count);
  }
}

export interface DropRow {
  day: string;
  reason: DropReason;
  count: number;
}

export async function writeDrops(trx: Transaction<Database>, rows: readonly DropRow[]): Promise<void> {
  for (const row of rows) {
    await trx
      .insertInto('abuse_counters')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['day', 'reason'])
          .doUpdateSet((eb) => ({ count: eb('abuse_counters.count', '+', eb.ref('excluded.count')) })),
      )
      .execute();
  }
}
