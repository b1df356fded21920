import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../store/database.ts';
import type { GroupCommitter } from '../../store/group-commit.ts';
import type { Database } from '../../store/schema.ts';
import type { Mailer, MailMessage } from './mailer.ts';
import { type BroadcastPace, LocalPace } from './broadcast-pace.ts';
import type { Composer, OutboxRow } from './outbox.ts';
import { errorText } from '../../lib/log-safe.ts';
import type { Suppressions } from './suppression.ts';
import type { Verp } from './verp.ts';
import type { VisitorFirstPace } from './visitor-first-pace.ts';

export const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 16 * 60_000;
/** After this long an email is marked failed rather than retried for ever. */
export const GIVE_UP_AFTER_MS = 48 * 60 * 60_000;
// Longer than any SMTP exchange can take (mailer timeouts), so a lease only lapses if its holder died.
const LEASE_MS = 5 * 60_000;
/**
 * Broadcast rows kept leased ahead of the slots, claimed together once no more than a round of
 * sends is left in hand: one claim per this many emails rather than one per email
 * (docs/decisions/0046-broadcast-throughput.md). A pause still stops them: each is composed, and
 * its broadcast read, just before its own send.
 */
const BROADCAST_LOOKAHEAD = 32;
/**
 * Marks of rows whose email the server took (and of rows cancelled) wait to be written together,
 * one UPDATE and one commit for up to this many, or for MARK_DELAY_MS after the first of them,
 * whichever comes first. A crash in that time may send them again (as a crash between an email's
 * 250 and its mark always could): at most this many, plus those in their SMTP exchange.
 */
const MARK_BATCH = 32;
const MARK_DELAY_MS = 250;
/**
 * Rows of other kinds (confirmations) kept leased ahead of the slots grow up to this many while
 * each claim comes back full (a backlog, as after a burst of sign-ups): one claim per this many
 * emails rather than one per email (decision 0051). A short claim (the queue's end) shrinks it back
 * to a slot's worth, so an instance never sits on rows another could be sending.
 */
const OTHER_LOOKAHEAD_MAX = 32;

/** 30 s after the first failure, doubling, at most 16 min. */
export const retryDelayMs = (failures: number): number =>
  Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);

export interface OutboxWorkerOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  mailer: Mailer;
  /** The composer of each kind of email, by kind (registered by the features that own them). */
  kinds: ReadonlyMap<string, Composer>;
  clock?: () => Date;
  /** A send failed (with its row), or the outbox could not be read at all (no row). */
  onError?: (error: unknown, row?: OutboxRow) => void;
  /** The mail server accepted a row's email (and the row is marked sent). */
  onSent?: (row: OutboxRow) => void;
  pollMs?: number;
  batchSize?: number;
  /**
   * Broadcast rows (those with a broadcast_id) this instance sends per second at most
   * (MAIL_RATE_PER_SEC); other rows are never paced and are always claimed first.
   */
  broadcastRatePerSec?: number;
  /** Overrides the per-instance pace made from broadcastRatePerSec (the mail plugin shares it in Redis). */
  pace?: BroadcastPace;
  /**
   * Emails this instance has in the middle of their SMTP exchange at once (MAIL_CONCURRENCY; the
   * mailer's pool holds as many connections). Broadcast rows may fill all but one of them, so a
   * confirmation queued during a broadcast finds a free slot at once. Default 1: one at a time.
   */
  concurrency?: number;
  /**
   * The store's group committer: claims and marks then share a commit (one fsync) with each other
   * and with the sign-ups being written, instead of one commit each. Without it, each is its own.
   */
  committer?: GroupCommitter;
  /**
   * The suppression list: an address on it is never mailed (the row is cancelled just before its
   * SMTP exchange), and the mail server's last word feeds it (5xx: a hard bounce; 4xx until the
   * row is given up: a soft one).
   */
  suppressions?: Suppressions;
  /** Gives each email a VERP envelope sender naming its row, so a later bounce finds it. */
  verp?: Verp;
  /** Overrides BROADCAST_LOOKAHEAD, MARK_BATCH and MARK_DELAY_MS (tests). */
  broadcastLookahead?: number;
  markBatch?: number;
  markDelayMs?: number;
  /**
   * Spaces the emails while visitors are arriving and the event loop is busy (decision 0051);
   * unset: every email starts as soon as a slot is free. A pass on demand (runOnce) is never paced.
   */
  visitorPace?: VisitorFirstPace;
}

/** How a row that was not retried ends: written with others in one transaction (markRows). */
type Outcome = 'sent' | 'cancelled' | 'suppressed';

interface PendingMark {
  row: OutboxRow;
  outcome: Outcome;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** An SMTP answer in the 5xx range: the server refused for good; retrying will not change it. */
const isPermanentSmtpFailure = (error: unknown): boolean => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * A given-up row's bounce: 5xx hard, but 5.7.x (a receiver's policy or content filter: it refused
 * our mail, not the address) a policy refusal; 4xx (retried until given up) soft; no answer at all
 * is neither. docs/decisions/0035-bounces-complaints-and-suppression.md
 */
function smtpBounceKind(error: unknown): 'hard' | 'soft' | 'policy' | null {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  if (typeof code !== 'number') return null;
  if (code >= 500 && code < 600) return smtpStatus(error)?.startsWith('5.7.') ? 'policy' : 'hard';
  return code >= 400 && code < 500 ? 'soft' : null;
}

/** The enhanced status (RFC 3463, e.g. "5.1.1") or the reply code; the reply text may hold the address. */
function smtpStatus(error: unknown): string | null {
  const e = error as { responseCode?: unknown; response?: unknown } | null;
  const enhanced = typeof e?.response === 'string' ? /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(e.response)?.[1] : undefined;
  return enhanced ?? (typeof e?.responseCode === 'number' ? String(e.responseCode) : null);
}

/**
 * The VERP envelope sender, plus the headers mailbox providers group reports by: Feedback-ID
 * (Gmail's feedback loop: campaign:kind:sender, here broadcast id or "-", the outbox kind and our
 * domain) and, for a broadcast, an RFC 2919 List-Id of its own, so complaints per broadcast can be
 * told apart. Every email the app sends gets them here: a queued row, and a test send
 * (Outbox.sendNow, under an id that names no row).
 */
export function withBounceHeaders(
  message: MailMessage,
  row: Pick<OutboxRow, 'id' | 'kind' | 'broadcast_id'>,
  verp: Verp,
): MailMessage {
  const campaign = row.broadcast_id ? row.broadcast_id.replace(/-/g, '') : '-';
  const headers: Record<string, string> = {
    ...message.headers,
    'Feedback-ID': `${campaign}:${row.kind}:diamond-hand:${verp.domain}`,
  };
  if (row.broadcast_id) headers['List-Id'] = `Broadcast <b${campaign}.${verp.domain}>`;
  // The Message-ID carries the same signed id: a report whose copy lost the envelope still names it.
  return { ...message, headers, envelopeFrom: verp.address(row.id), messageId: verp.messageId(row.id) };
}

/**
 * Sends the outbox. Rows are claimed with a lease (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite
 * serialises writers), so instances sharing a database never hold the same row at once, and a row
 * is marked sent only by the instance holding its lease.
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
  private readonly markBatch: number;
  private readonly markDelayMs: number;
  /** Marks waiting to be written together (markLater), and the timer that writes them at the latest. */
  private marks: PendingMark[] = [];
  private markTimer: NodeJS.Timeout | undefined;
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
  /** Transactions this worker has asked for (claims, marks, failures and releases): what 0046 counts. */
  readonly writes = { claims: 0, marks: 0, others: 0, rowsMarked: 0 };

  constructor(private readonly opts: OutboxWorkerOptions) {
    this.clock = opts.clock ?? (() => new Date());
    this.concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));
    const rate = opts.broadcastRatePerSec ?? Number.POSITIVE_INFINITY;
    this.pace = opts.pace ?? (Number.isFinite(rate) ? new LocalPace(rate) : null);
    this.broadcastSlots = Math.max(1, this.concurrency - 1);
    this.broadcastLookahead = Math.max(0, Math.floor(opts.broadcastLookahead ?? BROADCAST_LOOKAHEAD));
    this.markBatch = Math.max(1, Math.floor(opts.markBatch ?? MARK_BATCH));
    this.markDelayMs = Math.max(0, opts.markDelayMs ?? MARK_DELAY_MS);
    this.otherLookahead = this.concurrency;
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
    if (unstarted.length > 0) {
      this.writes.others++;
      await this.write((db) =>
        db
          .updateTable('outbox')
          .set({ locked_by: null, locked_until: null })
          .where('id', 'in', unstarted)
          .where('locked_by', '=', this.id)
          .execute(),
      );
    }
    // Stopped, each mark is written at once (markLater): the ones waiting now go first.
    this.flushMarks();
    await Promise.all(this.inFlight);
  }

  /**
   * Something was queued: look now rather than at the next poll. A visitor's email (the default)
   * looks for other kinds only: looking for broadcast rows at every sign-up was an empty claim in
   * nearly every group commit of a burst (decision 0051); broadcast rows are looked for when a
   * broadcast nudges, at every poll, and with claims that find them.
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

  private async fillSlots(): Promise<void> {
    for (;;) {
      this.again = false;
      this.startReady();
      if (this.stopped) return;
      const broadcastReady = this.ready.filter((r) => r.broadcast_id !== null).length;
      // Broadcast rows: claimed in batches, once no more than a round of sends is left in hand.
      // Not looked for again once a claim found none (the queue's end) until a nudge or a poll:
      // at a broadcast's end that would be an empty claim per email.
      const broadcastWant =
        !this.broadcastDue || broadcastReady > this.broadcastSlots
          ? 0
          : Math.max(0, this.broadcastSlots + this.broadcastLookahead - this.broadcastInFlight - broadcastReady);
      // Other kinds: a slot's worth in hand beyond the slots (more under a backlog). Looked for
      // while they keep coming, after a nudge or a poll, and with every claim of broadcast rows;
      // not at each broadcast email's end (an empty claim per email is what the batches save), and
      // not while more than a round of them is in hand: those go first anyway (queue order), and
      // under a backlog the next claim then takes a batch rather than one row per email.
      const othersReady = this.ready.length - broadcastReady;
      const otherRoom =
        othersReady > this.concurrency
          ? 0
          : Math.max(0, this.concurrency - this.sending + this.otherLookahead - othersReady);
      const otherWant = this.othersDue || broadcastWant > 0 ? otherRoom : 0;
      if (otherWant === 0 && broadcastWant === 0) {
        // Enough in hand: the next send to end starts one of them and fills again. Rows nobody
        // nudged about (a retry come due, another instance's) are found by the poll.
        if (!this.othersDue || !this.broadcastDue) this.wakeIn(this.opts.pollMs ?? 1000);
        return;
      }
      const want = otherWant + broadcastWant;
      const nudges = this.nudges;
      // The marks waiting go in the same commit as the claim (the committer joins them).
      this.flushMarks();
      const { rows, pacedOut } = await this.claim(otherWant, broadcastWant);
      const othersClaimed = rows.filter((r) => r.broadcast_id === null).length;
      // None waiting (all leased, here or by another instance): not looked for again until a
      // nudge, a poll, or (other kinds) the next claim of broadcast rows.
      if (otherWant > 0) {
        this.othersDue = othersClaimed > 0 || this.nudges !== nudges;
        // A full claim means more are waiting: take more per claim next time, up to the cap.
        this.otherLookahead =
          othersClaimed >= otherWant
            ? Math.min(OTHER_LOOKAHEAD_MAX, Math.max(this.concurrency, this.otherLookahead * 2))
            : this.concurrency;
      }
      if (broadcastWant > 0 && !pacedOut) this.broadcastDue = rows.length > othersClaimed || this.nudges !== nudges;
      // Other kinds go ahead of every broadcast row already waiting here.
      const firstBroadcast = this.ready.findIndex((r) => r.broadcast_id !== null);
      const others = rows.filter((r) => r.broadcast_id === null);
      this.ready.splice(firstBroadcast === -1 ? this.ready.length : firstBroadcast, 0, ...others);
      this.ready.push(...rows.filter((r) => r.broadcast_id !== null));
      this.startReady();
      if (this.again) continue; // a nudge came during the claim: a confirmation may be waiting
      if (rows.length < want) {
        // Nothing more is due now; broadcast rows held back by the pace are due at the next token.
        this.wakeIn(pacedOut ? this.msToNextToken() : (this.opts.pollMs ?? 1000));
        return;
      }
    }
  }

  /** Starts waiting rows in the free slots; a broadcast row only while the broadcast cap allows. */
  private startReady(): void {
    while (!this.stopped && this.sending < this.concurrency) {
      const i = this.ready.findIndex((r) => r.broadcast_id === null || this.broadcastInFlight < this.broadcastSlots);
      if (i === -1) return;
      // Broadcast rows wait for the visitor pace; a confirmation only when confirmations are
      // themselves the backlog (claims coming back full, as in a burst): a trickle of them still
      // never waits behind a broadcast, whatever the broadcast does to the loop (0018, 0051).
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
    const send: Promise<void> = this.deliver(row, freeSlot)
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
    const { rows } = await this.claim(batch, batch, batch);
    let next = 0;
    const runner = async () => {
      for (let row = rows[next++]; row; row = rows[next++]) await this.deliver(row);
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

  // Every other kind first (a confirmation never waits behind a broadcast), then as many broadcast
  // rows as the pace and `broadcastRoom` allow (and `total`, when given, with the others), in one
  // transaction. Sorted: other kinds first, then first queued, first sent (RETURNING gives no
  // order, so restore the queue's). `pacedOut`: the pace, not the room or the queue, held
  // broadcast rows back.
  private async claim(
    otherRoom: number,
    broadcastRoom: number,
    total = Number.POSITIVE_INFINITY,
  ): Promise<{ rows: OutboxRow[]; pacedOut: boolean }> {
    const now = this.clock().getTime();
    // The tokens are taken before the transaction (the shared pace is a Redis call, not to be made
    // inside one); those not used go back after it.
    const allowed = broadcastRoom <= 0 ? 0 : this.pace ? await this.pace.take(broadcastRoom, now) : broadcastRoom;
    this.writes.claims++;
    const { others, broadcast } = await this.write(async (db) => {
      const others = otherRoom > 0 ? await this.claimSome(db, Math.min(otherRoom, total), false) : [];
      const room = Math.min(allowed, total - others.length);
      return { others, broadcast: room > 0 ? await this.claimSome(db, room, true) : [] };
    });
    // Tokens not used (fewer rows due than allowed) go back: an idle list saves up its second.
    if (allowed > broadcast.length) await this.pace?.giveBack(allowed - broadcast.length, now);
    const pacedOut = allowed < broadcastRoom && broadcast.length === allowed && others.length + allowed < total;
    const byQueue = (a: OutboxRow, b: OutboxRow) =>
      a.next_attempt_at < b.next_attempt_at ? -1 : a.next_attempt_at > b.next_attempt_at ? 1 : 0;
    return { rows: [...others.sort(byQueue), ...broadcast.sort(byQueue)], pacedOut };
  }

  /** A write, through the group committer when there is one. */
  private write<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.opts.committer ? this.opts.committer.run((trx) => fn(trx)) : fn(this.opts.db);
  }

  private async claimSome(db: Kysely<Database>, limit: number, broadcast: boolean): Promise<OutboxRow[]> {
    const { dialect } = this.opts;
    const now = this.clock().toISOString();
    const leaseUntil = new Date(this.clock().getTime() + LEASE_MS).toISOString();
    return db
      .updateTable('outbox')
      .set({ locked_by: this.id, locked_until: leaseUntil })
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

  /**
   * Lets go of a held row and of the rows of its broadcast leased here and not started (they would
   * be held too), without counting an attempt; they are looked at again after RETRY_BASE_MS, or
   * at once when a resume makes them due.
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
    const later = new Date(this.clock().getTime() + RETRY_BASE_MS).toISOString();
    this.writes.others++;
    await this.write((db) =>
      db
        .updateTable('outbox')
        .set({ locked_by: null, locked_until: null, next_attempt_at: later })
        .where('id', 'in', held)
        .where('locked_by', '=', this.id)
        .execute(),
    );
  }

  /**
   * Queues a row's mark to be written with others (MARK_BATCH, MARK_DELAY_MS); resolves once it
   * has committed. Until then the row stays leased here, so no other worker sends it.
   */
  private markLater(row: OutboxRow, outcome: Outcome): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.marks.push({ row, outcome, resolve, reject });
      if (this.marks.length >= this.markBatch || this.stopped || this.passes > 0) this.flushMarks();
      else this.markTimer ??= setTimeout(() => this.flushMarks(), this.markDelayMs);
    });
  }

  /** Writes every mark waiting, in one transaction; then tells onSent of the rows sent. */
  private flushMarks(): void {
    if (this.markTimer) clearTimeout(this.markTimer);
    this.markTimer = undefined;
    const batch = this.marks;
    if (batch.length === 0) return;
    this.marks = [];
    this.writes.marks++;
    this.writes.rowsMarked += batch.length;
    this.write((db) => this.markRows(db, batch)).then(
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
      db.updateTable('outbox').where('id', 'in', rowIds).where('locked_by', '=', this.id);
    const unlocked = { locked_by: null, locked_until: null };
    const sent = ids('sent');
    const cancelled = ids('cancelled');
    const suppressed = ids('suppressed');
    if (sent.length > 0) {
      await mine(sent)
        .set((eb) => ({
          status: 'sent',
          attempts: eb('attempts', '+', 1),
          sent_at: this.clock().toISOString(),
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

  /** Composes, sends and marks one row; `exchanged` is called once the SMTP server has answered. */
  private async deliver(row: OutboxRow, exchanged: () => void = () => undefined): Promise<void> {
    const mine = (db: Kysely<Database>) =>
      db.updateTable('outbox').where('id', '=', row.id).where('locked_by', '=', this.id);
    let message: MailMessage | 'cancel' | undefined;
    try {
      const compose = this.opts.kinds.get(row.kind);
      // During a rolling deploy an older instance may claim a kind it does not know yet: the
      // row is retried with back-off, so an instance that knows it sends it.
      if (!compose) throw new Error(`no composer for outbox kind "${row.kind}" on this instance`);
      const composed = await compose(row, this.clock());
      if (composed === 'hold') {
        exchanged();
        await this.hold(row);
        return;
      }
      message = composed;
      if (message !== 'cancel' && (await this.opts.suppressions?.isSuppressed(this.opts.db, message.to))) {
        exchanged();
        await this.markLater(row, 'suppressed');
        return;
      }
      if (message !== 'cancel') {
        await this.opts.mailer.send(this.opts.verp ? withBounceHeaders(message, row, this.opts.verp) : message);
      }
      exchanged();
    } catch (error) {
      exchanged();
      this.opts.onError?.(error, row);
      const now = this.clock();
      const failures = row.attempts + 1;
      // 4xx (and a dropped connection) is worth another try later; 5xx is the server's last word.
      const permanent = isPermanentSmtpFailure(error);
      const giveUp = permanent || now.getTime() - Date.parse(row.created_at) >= GIVE_UP_AFTER_MS;
      const address = message && message !== 'cancel' ? message.to : null;
      const bounce = giveUp && address && this.opts.suppressions ? smtpBounceKind(error) : null;
      this.writes.others++;
      await this.write(async (db) => {
        // The SMTP answer is a bounce heard at once: the row id is its event id, so it counts once.
        if (bounce && address) {
          await this.opts.suppressions?.record(db, {
            source: 'smtp',
            eventId: row.id,
            kind: bounce,
            address,
            outboxId: row.id,
            detail: smtpStatus(error),
            now,
          });
        }
        return mine(db)
          .set({
            status: giveUp ? 'failed' : 'pending',
            attempts: failures,
            next_attempt_at: new Date(now.getTime() + retryDelayMs(failures)).toISOString(),
            last_error: errorText(error).slice(0, 500),
            locked_by: null,
            locked_until: null,
          })
          .execute();
      });
      return;
    }
    await this.markLater(row, message === 'cancel' ? 'cancelled' : 'sent');
  }
}
