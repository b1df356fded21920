import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { checkBroadcast, minSampleOf, ratesOf } from './broadcast-brake.ts';

// The brake re-checked as rows are sent, not only when an event arrives
// (docs/decisions/0040-dkim-mail-check-and-a-brake-that-keeps-counting.md). Sending alone can trip
// the brake at one moment only: when the sent count reaches the minimum sample, so that bounces
// and complaints heard before it are judged. Past the sample a rate rises only with a new event
// (checked where the event is stored, broadcast-brake.ts) and falls as more rows are sent. So a
// broadcast is read as its rows go out until a read finds its sample reached; then it is checked
// once under the lock (which pauses it if it must) and left to the event path.

export type BroadcastRead = 'waiting' | 'checked' | 'paused' | 'done';

export class SampleWatch {
  /** Broadcasts past their sample (and checked), or finished: no more reads. */
  private readonly settled = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => Date,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** A row of this broadcast was marked sent (app.outbox.onBroadcastRowSent): reads it, one read at a time. */
  rowSent(id: string): void {
    if (this.settled.has(id)) return;
    if (this.running.has(id)) {
      // Rows sent during a read: one more read after it, however many they were.
      this.again.add(id);
      return;
    }
    const run = (async () => {
      try {
        do {
          this.again.delete(id);
          await this.check(id);
        } while (this.again.has(id) && !this.settled.has(id));
      } catch (error) {
        this.onError(error);
      } finally {
        this.running.delete(id);
      }
    })();
    this.running.set(id, run);
  }

  /** Resolves when no read of this broadcast is under way (tests). */
  async idle(id: string): Promise<void> {
    await this.running.get(id);
  }

  /**
   * One read: below its sample, nothing; at or past it, the brake's check in a transaction of its
   * own, once. A paused broadcast is read again after its resume (its rows are sent again).
   */
  async check(id: string): Promise<BroadcastRead> {
    const b = await this.db
      .selectFrom('broadcasts')
      .select(['status', 'recipients', 'pause_overridden_by'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!b || (b.status !== 'sending' && b.status !== 'paused') || b.pause_overridden_by !== null) {
      this.settled.add(id);
      return 'done';
    }
    if (b.status !== 'sending') return 'waiting';
    // Read outside a transaction: it takes no write lock, and most reads find the sample not reached.
    if ((await ratesOf(this.db, id)).sent < minSampleOf(b.recipients ?? 0)) return 'waiting';
    const paused = await this.db.transaction().execute((trx) => checkBroadcast(trx, id, this.clock()));
    // A pause by this check needs no more reads; neither does a check that found the rates fine.
    this.settled.add(id);
    return paused ? 'paused' : 'checked';
  }
}
