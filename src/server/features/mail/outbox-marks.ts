import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import type { OutboxLeases } from './outbox-leases.ts';
import type { OutboxRow } from './outbox.ts';
import type { OutboxWrites } from './outbox-worker-options.ts';

/** How a row that was not retried ends: written with others in one transaction (markRows). */
export type Outcome = 'sent' | 'cancelled' | 'suppressed';

interface PendingMark {
  row: OutboxRow;
  outcome: Outcome;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The marks of rows whose send has ended, written together: one UPDATE per outcome and one commit
 * for up to `batch` rows, or `delayMs` after the first, whichever comes first (MARK_BATCH and
 * MARK_DELAY_MS in outbox-worker-options.ts say why a crash in between is acceptable). Until its
 * mark commits, a row stays leased by this worker, so no other instance sends it.
 */
export class MarkQueue {
  private marks: PendingMark[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly opts: {
      leases: OutboxLeases;
      clock: () => Date;
      batch: number;
      delayMs: number;
      /** Marks are written at once, not batched (a stopping worker, a pass on demand). */
      atOnce: () => boolean;
      onSent?: ((row: OutboxRow) => void) | undefined;
      writes: OutboxWrites;
    },
  ) {}

  /** Queues a row's mark; resolves once it has committed. */
  later(row: OutboxRow, outcome: Outcome): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.marks.push({ row, outcome, resolve, reject });
      if (this.marks.length >= this.opts.batch || this.opts.atOnce()) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.opts.delayMs);
    });
  }

  /** Writes every mark waiting, in one transaction; then tells onSent of the rows sent. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.marks;
    if (batch.length === 0) return;
    this.marks = [];
    this.opts.writes.marks++;
    this.opts.writes.rowsMarked += batch.length;
    this.opts.leases
      .write((db) => this.markRows(db, batch))
      .then(
        () => {
          for (const m of batch) m.resolve();
          for (const m of batch) if (m.outcome === 'sent') this.opts.onSent?.(m.row);
        },
        (error: unknown) => {
          for (const m of batch) m.reject(error);
        },
      );
  }

  /** One UPDATE per outcome for the rows of `batch`, each only while this worker holds its lease. */
  private async markRows(db: Kysely<Database>, batch: readonly PendingMark[]): Promise<void> {
    const ids = (outcome: Outcome) => batch.filter((m) => m.outcome === outcome).map((m) => m.row.id);
    const mine = (rowIds: string[]) =>
      db.updateTable('outbox').where('id', 'in', rowIds).where('locked_by', '=', this.opts.leases.workerId);
    const unlocked = { locked_by: null, locked_until: null };
    const sent = ids('sent');
    const cancelled = ids('cancelled');
    const suppressed = ids('suppressed');
    if (sent.length > 0) {
      await mine(sent)
        .set((eb) => ({
          status: 'sent',
          attempts: eb('attempts', '+', 1),
          sent_at: this.opts.clock().toISOString(),
          ...unlocked,
        }))
        .execute();
    }
    if (cancelled.length > 0) {
      await mine(cancelled)
        .set((eb) => ({ status: 'cancelled', attempts: eb('attempts', '+', 1), sent_at: null, ...unlocked }))
        .execute();
    }
    if (suppressed.length > 0) {
      await mine(suppressed)
        .set({ status: 'cancelled', last_error: 'suppressed: this address is on the suppression list', ...unlocked })
        .execute();
    }
  }
}
