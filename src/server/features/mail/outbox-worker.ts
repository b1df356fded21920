import { randomUUID } from 'node:crypto';
import { type BroadcastPace, LocalPace } from './broadcast-pace.ts';
import { deliver, type Delivery } from './outbox-delivery.ts';
import { OutboxLeases } from './outbox-leases.ts';
import { MarkQueue } from './outbox-marks.ts';
import {
  BROADCAST_LOOKAHEAD,
  MARK_BATCH,
  MARK_DELAY_MS,
  OTHER_LOOKAHEAD_MAX,
  type OutboxWorkerOptions,
  type OutboxWrites,
} from './outbox-worker-options.ts';
import type { OutboxRow } from './outbox.ts';

/** How many rows of other kinds, and of broadcasts, the next claim asks for. */
type Wants = { others: number; broadcast: number };

// The worker's pieces live beside it: its leases on rows (outbox-leases.ts), the batched marks
// (outbox-marks.ts), one row's compose-send-mark (outbox-delivery.ts), the retry policy
// (outbox-retry.ts). This file is the slots: what a free slot is claimed for, and when.
export type { OutboxWorkerOptions } from './outbox-worker-options.ts';
export { GIVE_UP_AFTER_MS, RETRY_BASE_MS, retryDelayMs } from './outbox-retry.ts';

/**
 * Sends the outbox. Rows are claimed with a lease (outbox-leases.ts), so instances sharing a
 * database never hold the same row at once, and a row is marked sent only by the instance holding
 * its lease.
 *
 * Started, it keeps up to `concurrency` sends in flight: every send that ends, and every nudge,
 * claims rows for the slots that are free (the slot bookkeeping is ours because the priority and
 * the broadcast cap decide what a free slot is claimed for; a generic limiter knows neither).
 */
export class OutboxWorker {
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  /** When `timer` fires (performance.now()). */
  private timerAt = 0;
  private filling: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private readonly clock: () => Date;
  private readonly concurrency: number;
  // Broadcast rows may take every slot but one (all of them when there is only one).
  private readonly broadcastSlots: number;
  /** Rows leased here and waiting for a slot: other kinds first, then broadcast rows, each in queue order. */
  private readonly ready: OutboxRow[] = [];
  /** Emails in their SMTP exchange now (the slots taken), and how many of them are broadcast rows. */
  private sending = 0;
  private broadcastInFlight = 0;
  /** Every delivery under way, until its row is marked (stop() waits for them). */
  private readonly inFlight = new Set<Promise<void>>();
  // Per-instance token bucket for broadcast rows: up to one second's worth may go at once.
  private readonly pace: BroadcastPace | null;
  private readonly broadcastLookahead: number;
  private readonly leases: OutboxLeases;
  private readonly marks: MarkQueue;
  private readonly delivery: Delivery;
  /** Rows of other kinds, or broadcast rows, may be due (see fillSlots); nudges so far. */
  private othersDue = true;
  private broadcastDue = true;
  private nudges = 0;
  /**
   * Rows of other kinds kept leased ahead of the slots, so a slot that frees starts its next email
   * at once instead of waiting for a claim's commit: a slot's worth, more under a backlog.
   */
  private otherLookahead: number;
  /** Wakes the slots when the visitor pace lets the next email go. */
  private paceTimer: NodeJS.Timeout | undefined;
  /** runOnce passes under way: their marks are written at once. */
  private passes = 0;
  /**
   * Transactions this worker has asked for (claims, marks, failures and releases): the tests and the
   * bench divide them by the emails sent, the database's cost per email (decision 0046).
   */
  readonly writes: OutboxWrites = { claims: 0, marks: 0, others: 0, rowsMarked: 0 };

  constructor(private readonly opts: OutboxWorkerOptions) {
    this.clock = opts.clock ?? (() => new Date());
    this.concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));
    const rate = opts.broadcastRatePerSec ?? Number.POSITIVE_INFINITY;
    this.pace = opts.pace ?? (Number.isFinite(rate) ? new LocalPace(rate) : null);
    this.broadcastSlots = Math.max(1, this.concurrency - 1);
    this.broadcastLookahead = Math.max(0, Math.floor(opts.broadcastLookahead ?? BROADCAST_LOOKAHEAD));
    this.otherLookahead = this.concurrency;
    const { db, dialect, committer } = opts;
    const clock = this.clock;
    this.leases = new OutboxLeases({
      db,
      dialect,
      committer,
      clock,
      workerId: this.id,
      pace: this.pace,
      writes: this.writes,
    });
    this.marks = new MarkQueue({
      leases: this.leases,
      clock,
      batch: Math.max(1, Math.floor(opts.markBatch ?? MARK_BATCH)),
      delayMs: Math.max(0, opts.markDelayMs ?? MARK_DELAY_MS),
      // Stopped, or in a pass on demand, each mark is written at once: the caller waits for them.
      atOnce: () => this.stopped || this.passes > 0,
      onSent: opts.onSent,
      writes: this.writes,
    });
    this.delivery = { opts, clock, leases: this.leases, marks: this.marks, hold: (row) => this.hold(row) };
  }

  start(): void {
    this.stopped = false;
    this.othersDue = true;
    this.broadcastDue = true;
    this.fill();
  }

  /**
   * Claims nothing more, lets go of the rows leased but not yet started (so another instance, or
   * this one restarted, sends them without waiting for the lease to lapse), and waits for the
   * sends under way to be marked.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.paceTimer) clearTimeout(this.paceTimer);
    this.paceTimer = undefined;
    await this.filling;
    const unstarted = this.ready.splice(0).map((r) => r.id);
    if (unstarted.length > 0) await this.leases.release(unstarted);
    // Stopped, each mark is written at once (MarkQueue.later): the ones waiting now go first.
    this.marks.flush();
    await Promise.all(this.inFlight);
  }

  /**
   * Something was queued: look now rather than at the next poll. A visitor's email (the default)
   * looks for other kinds only: looking for broadcast rows at every sign-up was an empty claim in
   * nearly every group commit of a burst of sign-ups; broadcast rows are looked for when a
   * broadcast nudges, at every poll, and with claims that find them (decision 0051).
   */
  nudge(what: 'email' | 'broadcast' = 'email'): void {
    this.nudges++;
    this.othersDue = true;
    if (what === 'broadcast') this.broadcastDue = true;
    else this.opts.visitorPace?.arrived(performance.now());
    this.fill();
  }

  /** Claims rows for the free slots now, unless a claim is under way (which then looks again). */
  private fill(): void {
    if (this.stopped) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = this.fillSlots()
      .catch((error: unknown) => {
        // The database being briefly unreachable is no reason to stop; the next poll tries again.
        this.opts.onError?.(error);
        this.wakeIn(this.opts.pollMs ?? 1000);
      })
      .finally(() => {
        this.filling = undefined;
        if (this.again) this.fill();
      });
  }

  /**
   * Claims rows for the free slots and starts them, until enough are leased here or a claim comes
   * back short. A nudge during a claim (`again`) goes round once more, since the row it was about
   * may have been queued after the claim looked.
   */
  private async fillSlots(): Promise<void> {
    for (;;) {
      this.again = false;
      this.startReady();
      if (this.stopped) return;
      const want = this.wants();
      if (want.others === 0 && want.broadcast === 0) {
        // Enough leased here: the next send to end starts one of them and fills again. Rows nobody
        // nudged about (a retry come due, another instance's) are found by the poll.
        if (!this.othersDue || !this.broadcastDue) this.wakeIn(this.opts.pollMs ?? 1000);
        return;
      }
      const nudges = this.nudges;
      // The marks waiting go in the same commit as the claim (the committer joins them).
      this.marks.flush();
      const { rows, pacedOut } = await this.leases.claim(want.others, want.broadcast);
      this.learnFromClaim(want, rows, pacedOut, nudges);
      this.enqueue(rows);
      this.startReady();
      if (this.again) continue; // a nudge came during the claim: a confirmation may be waiting
      if (rows.length < want.others + want.broadcast) {
        // Nothing more is due now; broadcast rows held back by the pace are due at the next token.
        this.wakeIn(pacedOut ? this.msToNextToken() : (this.opts.pollMs ?? 1000));
        return;
      }
    }
  }

  /**
   * How many rows of each kind the next claim asks for. "Waiting here" below means leased by this
   * worker and not yet started.
   */
  private wants(): Wants {
    const broadcastWaiting = this.ready.filter((r) => r.broadcast_id !== null).length;
    // Broadcast rows are claimed in batches, once no more of them wait here than the slots they
    // may take. After a claim found none (the queue's end) they are not looked for again until a
    // nudge or a poll: at a broadcast's end that would be an empty claim per email sent.
    const broadcast =
      !this.broadcastDue || broadcastWaiting > this.broadcastSlots
        ? 0
        : Math.max(0, this.broadcastSlots + this.broadcastLookahead - this.broadcastInFlight - broadcastWaiting);
    // Other kinds: enough to fill the free slots, plus `otherLookahead` more. They are looked for
    // while they keep coming, after a nudge or a poll, and with every claim of broadcast rows, but
    // not at each broadcast email's end (an empty claim per email is what the batches save). Nor
    // while more of them wait here than there are slots: they go first anyway (queue order), and
    // under a backlog the next claim then takes a batch rather than one row per email sent.
    const othersWaiting = this.ready.length - broadcastWaiting;
    const room =
      othersWaiting > this.concurrency
        ? 0
        : Math.max(0, this.concurrency - this.sending + this.otherLookahead - othersWaiting);
    return { others: this.othersDue || broadcast > 0 ? room : 0, broadcast };
  }

  /**
   * What a claim says about the queue. A kind that came back empty (all leased, here or by another
   * instance) is not looked for again until a nudge, a poll, or (other kinds) the next claim of
   * broadcast rows; one nudged about during the claim is. A claim of other kinds that came back
   * full means a backlog: the next one leases further ahead, up to OTHER_LOOKAHEAD_MAX.
   */
  private learnFromClaim(want: Wants, rows: OutboxRow[], pacedOut: boolean, nudgesBefore: number): void {
    const nudged = this.nudges !== nudgesBefore;
    const othersClaimed = rows.filter((r) => r.broadcast_id === null).length;
    if (want.others > 0) {
      this.othersDue = othersClaimed > 0 || nudged;
      this.otherLookahead =
        othersClaimed >= want.others
          ? Math.min(OTHER_LOOKAHEAD_MAX, Math.max(this.concurrency, this.otherLookahead * 2))
          : this.concurrency;
    }
    // A claim the pace cut short says nothing about the queue's end.
    if (want.broadcast > 0 && !pacedOut) this.broadcastDue = rows.length > othersClaimed || nudged;
  }

  /** Claimed rows wait for a slot: other kinds ahead of every broadcast row already waiting here. */
  private enqueue(rows: OutboxRow[]): void {
    const firstBroadcast = this.ready.findIndex((r) => r.broadcast_id !== null);
    const others = rows.filter((r) => r.broadcast_id === null);
    this.ready.splice(firstBroadcast === -1 ? this.ready.length : firstBroadcast, 0, ...others);
    this.ready.push(...rows.filter((r) => r.broadcast_id !== null));
  }

  /** Starts waiting rows in the free slots; a broadcast row only while the broadcast cap allows. */
  private startReady(): void {
    while (!this.stopped && this.sending < this.concurrency) {
      const i = this.ready.findIndex((r) => r.broadcast_id === null || this.broadcastInFlight < this.broadcastSlots);
      if (i === -1) return;
      // Broadcast rows wait for the visitor pace (which keeps room on the event loop for the
      // visitors' requests); a confirmation waits too only when confirmations are themselves the
      // backlog (claims coming back full, as in a burst of sign-ups): a trickle of them never waits
      // behind a broadcast, whatever the broadcast does to the loop (decisions 0018 and 0051).
      const paced = this.ready[i]?.broadcast_id !== null || this.otherLookahead > this.concurrency;
      if (paced && this.opts.visitorPace) {
        if (this.paceTimer) return;
        const wait = this.opts.visitorPace.next(performance.now());
        if (wait > 0) {
          this.paceTimer = setTimeout(() => {
            this.paceTimer = undefined;
            this.fill();
          }, wait);
          this.paceTimer.unref();
          return;
        }
      }
      const [row] = this.ready.splice(i, 1);
      if (row) this.launch(row);
    }
  }

  private launch(row: OutboxRow): void {
    const broadcast = row.broadcast_id !== null;
    this.sending++;
    if (broadcast) this.broadcastInFlight++;
    let slotFreed = false;
    // The slot is the SMTP exchange: it frees when the server has answered, and the row's mark
    // (a commit) goes on without holding it.
    const freeSlot = () => {
      if (slotFreed) return;
      slotFreed = true;
      this.sending--;
      if (broadcast) this.broadcastInFlight--;
      this.fill();
    };
    const send: Promise<void> = deliver(this.delivery, row, freeSlot)
      .catch((error: unknown) => this.opts.onError?.(error, row))
      .finally(() => {
        this.inFlight.delete(send);
        freeSlot();
      });
    this.inFlight.add(send);
  }

  /**
   * The next poll, in `ms` at the latest. A poll already due sooner stands: put off again at every
   * fill, it never came while visitors kept nudging (a fill each), and what only a poll finds (a
   * broadcast row another instance queued, a retry come due) waited for the visitors to stop.
   */
  private wakeIn(ms: number): void {
    if (this.stopped) return;
    const at = performance.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.othersDue = true;
      this.broadcastDue = true;
      this.fill();
    }, ms);
    this.timer.unref();
  }

  /**
   * Claims due rows (at most the batch size) and sends them, `concurrency` at a time, every other
   * kind first; returns how many it claimed. For tests and a pass on demand; a started worker
   * does the same continuously.
   */
  async runOnce(): Promise<number> {
    const batch = this.opts.batchSize ?? 20;
    const { rows } = await this.leases.claim(batch, batch, batch);
    let next = 0;
    const runner = async () => {
      for (let row = rows[next++]; row; row = rows[next++]) await deliver(this.delivery, row);
    };
    // A pass's marks are written as each send ends: when it returns, its rows are marked.
    this.passes++;
    try {
      await Promise.all(Array.from({ length: Math.min(this.concurrency, rows.length) }, runner));
    } finally {
      this.passes--;
    }
    return rows.length;
  }

  private msToNextToken(): number {
    return this.pace ? this.pace.msToNext(this.clock().getTime()) : (this.opts.pollMs ?? 1000);
  }

  /**
   * Lets go of a held row and of the rows of its broadcast leased here and not started (they would
   * be held too), without counting an attempt (OutboxLeases.putOff).
   */
  private async hold(row: OutboxRow): Promise<void> {
    const held = [row.id];
    for (let i = this.ready.length - 1; i >= 0; i--) {
      const r = this.ready[i];
      if (r && r.broadcast_id !== null && r.broadcast_id === row.broadcast_id) {
        held.push(r.id);
        this.ready.splice(i, 1);
      }
    }
    await this.leases.putOff(held);
  }
}
