import type { Kysely } from 'kysely';
import type { Dialect } from '../../store/database.ts';
import type { GroupCommitter } from '../../store/group-commit.ts';
import type { Database } from '../../store/schema.ts';
import type { BroadcastPace } from './broadcast-pace.ts';
import type { OutboxRow } from './outbox.ts';
import type { OutboxWrites } from './outbox-worker-options.ts';
import { RETRY_BASE_MS } from './outbox-retry.ts';

// Longer than any SMTP exchange can take (mailer timeouts), so a lease only lapses if its holder died.
const LEASE_MS = 5 * 60_000;

/**
 * One worker's leases on outbox rows: claimed with a lease (PostgreSQL: FOR UPDATE SKIP LOCKED;
 * SQLite serialises writers), so instances sharing a database never hold the same row at once,
 * and let go of without an attempt counted when the worker stops or a broadcast is paused. Every
 * write names this worker's id, so a row whose lease lapsed to another instance is left alone.
 */
export class OutboxLeases {
  constructor(
    private readonly opts: {
      db: Kysely<Database>;
      dialect: Dialect;
      workerId: string;
      clock: () => Date;
      committer?: GroupCommitter | undefined;
      pace: BroadcastPace | null;
      writes: OutboxWrites;
    },
  ) {}

  get workerId(): string {
    return this.opts.workerId;
  }

  /** The worker's count of the transactions it asked for, which every write adds to. */
  get writes(): OutboxWrites {
    return this.opts.writes;
  }

  /** A write, through the group committer when there is one. */
  write<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.opts.committer ? this.opts.committer.run((trx) => fn(trx)) : fn(this.opts.db);
  }

  /**
   * Every other kind first (a confirmation never waits behind a broadcast), then as many broadcast
   * rows as the pace and `broadcastRoom` allow (and `total`, when given, with the others), in one
   * transaction. Sorted: other kinds first, then first queued, first sent (RETURNING gives no
   * order, so restore the queue's). `pacedOut`: the pace, not the room or the queue, held
   * broadcast rows back.
   */
  async claim(
    otherRoom: number,
    broadcastRoom: number,
    total = Number.POSITIVE_INFINITY,
  ): Promise<{ rows: OutboxRow[]; pacedOut: boolean }> {
    const { pace } = this.opts;
    const now = this.opts.clock().getTime();
    // The tokens are taken before the transaction (the shared pace is a Redis call, not to be made
    // inside one); those not used go back after it.
    const allowed = broadcastRoom <= 0 ? 0 : pace ? await pace.take(broadcastRoom, now) : broadcastRoom;
    this.opts.writes.claims++;
    const { others, broadcast } = await this.write(async (db) => {
      const others = otherRoom > 0 ? await this.claimSome(db, Math.min(otherRoom, total), false) : [];
      const room = Math.min(allowed, total - others.length);
      return { others, broadcast: room > 0 ? await this.claimSome(db, room, true) : [] };
    });
    // Tokens not used (fewer rows due than allowed) go back: an idle list saves up its second.
    if (allowed > broadcast.length) await pace?.giveBack(allowed - broadcast.length, now);
    const pacedOut = allowed < broadcastRoom && broadcast.length === allowed && others.length + allowed < total;
    const byQueue = (a: OutboxRow, b: OutboxRow) =>
      a.next_attempt_at < b.next_attempt_at ? -1 : a.next_attempt_at > b.next_attempt_at ? 1 : 0;
    return { rows: [...others.sort(byQueue), ...broadcast.sort(byQueue)], pacedOut };
  }

  private async claimSome(db: Kysely<Database>, limit: number, broadcast: boolean): Promise<OutboxRow[]> {
    const { dialect, clock, workerId } = this.opts;
    const now = clock().toISOString();
    const leaseUntil = new Date(clock().getTime() + LEASE_MS).toISOString();
    return db
      .updateTable('outbox')
      .set({ locked_by: workerId, locked_until: leaseUntil })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('outbox')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', now)]))
          .where('broadcast_id', broadcast ? 'is not' : 'is', null)
          .orderBy('next_attempt_at')
          .limit(limit)
          .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked()),
      )
      .returning(['id', 'kind', 'subscriber_id', 'created_at', 'attempts', 'next_attempt_at', 'broadcast_id'])
      .execute();
  }

  /** Lets go of rows leased here and not started, due as they were: another instance may send them at once. */
  async release(ids: string[]): Promise<void> {
    this.opts.writes.others++;
    await this.write((db) =>
      db
        .updateTable('outbox')
        .set({ locked_by: null, locked_until: null })
        .where('id', 'in', ids)
        .where('locked_by', '=', this.opts.workerId)
        .execute(),
    );
  }

  /**
   * Lets go of held rows (a paused broadcast's) without counting an attempt; they are looked at
   * again after RETRY_BASE_MS, or at once when a resume makes them due.
   */
  async putOff(ids: string[]): Promise<void> {
    const later = new Date(this.opts.clock().getTime() + RETRY_BASE_MS).toISOString();
    this.opts.writes.others++;
    await this.write((db) =>
      db
        .updateTable('outbox')
        .set({ locked_by: null, locked_until: null, next_attempt_at: later })
        .where('id', 'in', ids)
        .where('locked_by', '=', this.opts.workerId)
        .execute(),
    );
  }
}
