import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Dialect } from '../store/database.ts';
import type { Database } from '../store/schema.ts';
import type { Mailer, MailMessage } from './mailer.ts';
import type { Composer, OutboxRow } from './outbox.ts';
import { errorText } from '../lib/log-safe.ts';

export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 16 * 60_000;
/** After this long an email is marked failed rather than retried for ever. */
export const GIVE_UP_AFTER_MS = 48 * 60 * 60_000;
// Longer than any SMTP exchange can take (mailer timeouts), so a lease only lapses if its holder died.
const LEASE_MS = 5 * 60_000;

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
  pollMs?: number;
  batchSize?: number;
  /**
   * Broadcast rows (those with a broadcast_id) this instance sends per second at most
   * (MAIL_RATE_PER_SEC); other rows are never paced and are always claimed first.
   */
  broadcastRatePerSec?: number;
}

/** An SMTP answer in the 5xx range: the server refused for good; retrying will not change it. */
export const isPermanentSmtpFailure = (error: unknown): boolean => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * Sends the outbox. Rows are claimed with a lease (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite
 * serialises writers), so instances sharing a database never hold the same row at once, and a row
 * is marked sent only by the instance holding its lease.
 */
export class OutboxWorker {
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private readonly clock: () => Date;
  // Per-instance token bucket for broadcast rows: up to one second's worth may go at once.
  private tokens = 0;
  private tokensAt = 0;

  constructor(private readonly opts: OutboxWorkerOptions) {
    this.clock = opts.clock ?? (() => new Date());
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Something was queued: look now rather than at the next poll. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.runUntilEmpty().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.schedule(this.again ? 0 : (this.opts.pollMs ?? 1000));
        this.again = false;
      });
    }, ms);
    this.timer.unref();
  }

  private async runUntilEmpty(): Promise<void> {
    try {
      while (!this.stopped && (await this.runOnce()) > 0);
    } catch (error) {
      // The database being briefly unreachable is no reason to stop; the next poll tries again.
      this.opts.onError?.(error);
    }
  }

  /** Claims due rows and sends them; returns how many it claimed. */
  async runOnce(): Promise<number> {
    const rows = await this.claim();
    // Broadcast rows last, then first queued, first sent: RETURNING gives no order, so restore the queue's.
    const rank = (r: OutboxRow) => `${r.broadcast_id === null ? 0 : 1}${r.next_attempt_at}`;
    rows.sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
    for (const row of rows) await this.deliver(row);
    return rows.length;
  }

  /** How many broadcast rows the pace allows now (and takes them from the bucket). */
  private broadcastAllowance(limit: number): number {
    const rate = this.opts.broadcastRatePerSec ?? Number.POSITIVE_INFINITY;
    if (!Number.isFinite(rate)) return limit;
    const now = this.clock().getTime();
    const burst = Math.max(1, rate);
    this.tokens = Math.min(burst, this.tokens + ((now - this.tokensAt) / 1000) * rate);
    this.tokensAt = now;
    const n = Math.min(limit, Math.floor(this.tokens));
    this.tokens -= n;
    return n;
  }

  // Every other kind first (a confirmation never waits behind a broadcast), then as many broadcast
  // rows as the pace allows.
  private async claim(): Promise<OutboxRow[]> {
    const batch = this.opts.batchSize ?? 20;
    const others = await this.claimSome(batch, false);
    const room = batch - others.length;
    if (room <= 0) return others;
    const allowed = this.broadcastAllowance(room);
    if (allowed <= 0) return others;
    const broadcast = await this.claimSome(allowed, true);
    // Tokens not used (fewer rows due than allowed) go back: an idle list saves up its second.
    this.tokens += allowed - broadcast.length;
    return [...others, ...broadcast];
  }

  private async claimSome(limit: number, broadcast: boolean): Promise<OutboxRow[]> {
    const { db, dialect } = this.opts;
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

  private async deliver(row: OutboxRow): Promise<void> {
    const { db } = this.opts;
    const mine = (qb: ReturnType<typeof db.updateTable<'outbox'>>) =>
      qb.where('id', '=', row.id).where('locked_by', '=', this.id);
    let message: MailMessage | 'cancel';
    try {
      const compose = this.opts.kinds.get(row.kind);
      // During a rolling deploy an older instance may claim a kind it does not know yet: the
      // row is retried with back-off, so an instance that knows it sends it.
      if (!compose) throw new Error(`no composer for outbox kind "${row.kind}" on this instance`);
      message = await compose(row, this.clock());
      if (message !== 'cancel') await this.opts.mailer.send(message);
    } catch (error) {
      this.opts.onError?.(error, row);
      const now = this.clock();
      const failures = row.attempts + 1;
      // 4xx (and a dropped connection) is worth another try later; 5xx is the server's last word.
      const giveUp = isPermanentSmtpFailure(error) || now.getTime() - Date.parse(row.created_at) >= GIVE_UP_AFTER_MS;
      await mine(db.updateTable('outbox'))
        .set({
          status: giveUp ? 'failed' : 'pending',
          attempts: failures,
          next_attempt_at: new Date(now.getTime() + retryDelayMs(failures)).toISOString(),
          last_error: errorText(error).slice(0, 500),
          locked_by: null,
          locked_until: null,
        })
        .execute();
      return;
    }
    await mine(db.updateTable('outbox'))
      .set({
        status: message === 'cancel' ? 'cancelled' : 'sent',
        attempts: row.attempts + 1,
        sent_at: message === 'cancel' ? null : this.clock().toISOString(),
        locked_by: null,
        locked_until: null,
      })
      .execute();
  }
}
