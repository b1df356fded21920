import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';
import { isStoreUnavailable, StoreUnavailableError } from './store-errors.ts';

export type Job<T> = (trx: Transaction<Database>) => Promise<T>;

/**
 * Work that is cheaper done for many inputs at once (one multi-row INSERT instead of one per
 * input): queued inputs of the same kind in a batch are handed over together. `run` must return
 * one output per input, in order.
 */
export interface BatchKind<I, O> {
  run(trx: Transaction<Database>, inputs: I[]): Promise<O[]>;
  /**
   * The same work for a batch holding nothing else, given the database rather than a transaction:
   * a kind that can keep its writes atomic by itself (one statement, or a transaction of its own
   * only when it needs more) spares the batch BEGIN and COMMIT, two of its round trips on
   * PostgreSQL (docs/decisions/0053). Same outputs, same durability: each answer still waits for
   * the commit that holds its writes.
   */
  runAlone?(db: Kysely<Database>, inputs: I[]): Promise<O[]>;
}

interface Queued {
  job?: Job<unknown>;
  kind?: BatchKind<unknown, unknown>;
  input?: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** Answered already (by its batch, or by the deadline): later outcomes are not reported. */
  done: boolean;
  /** performance.now() by which the caller is answered, whatever the database does. */
  deadline: number;
}

/**
 * How long a caller waits for its commit before it is told the store is unavailable: a sign-up is
 * answered within this even when the database has stopped answering (the issue asks for 2 s).
 */
const COMMIT_DEADLINE_MS = 1500;

const resolveItem = (item: Queued, value: unknown): void => {
  if (item.done) return;
  item.done = true;
  item.resolve(value);
};

const rejectItem = (item: Queued, error: unknown): void => {
  if (item.done) return;
  item.done = true;
  item.reject(error);
};

const runOne = (trx: Transaction<Database>, item: Queued): Promise<unknown> =>
  item.kind ? item.kind.run(trx, [item.input]).then((out) => out[0]) : (item.job as Job<unknown>)(trx);

/**
 * Group commit: while one transaction is committing, jobs that arrive wait and then share the
 * next transaction, so a burst costs one durable commit (one fsync) per batch instead of one per
 * job, and an idle server adds no delay. Each caller's promise resolves only after its batch has
 * committed. If a batch fails, its jobs are retried one per transaction so one bad job cannot
 * take the others down with it; unless the store itself is unavailable (store-errors.ts), when
 * every retry would hit the same wall.
 *
 * A caller waits at most `deadlineMs`: then it is rejected with StoreUnavailableError (a 503),
 * whether its job is still queued (it is then dropped, never run) or in a batch the database has
 * not answered (whose outcome is then unknown: it may still commit, or fail, after the answer;
 * docs/decisions/0020-faults.md). A hung database thus costs each request the deadline, not the
 * time the driver takes to give up, and the queue drains on its own once the database answers.
 */
export class GroupCommitter {
  private queue: Queued[] = [];
  /**
   * Every caller not yet answered, oldest first (deadlines only grow, as they are enqueue time plus
   * one constant), watched by one timer for the oldest: a timer per sign-up (set, then cleared at
   * its commit) was a few percent of a sign-up's CPU in the bench profile.
   */
  private waiting: Queued[] = [];
  private waitingHead = 0;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private draining = false;
  private idleWaiters: (() => void)[] = [];
  batches = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxBatch = 200,
    private readonly deadlineMs = COMMIT_DEADLINE_MS,
  ) {}

  run<T>(job: Job<T>): Promise<T> {
    return this.enqueue<T>({ job });
  }

  /** Queues one input of a batchable kind; resolves with its output once its batch commits. */
  runIn<I, O>(kind: BatchKind<I, O>, input: I): Promise<O> {
    return this.enqueue<O>({ kind: kind as BatchKind<unknown, unknown>, input });
  }

  private enqueue<T>(item: Pick<Queued, 'job' | 'kind' | 'input'>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Every field named, in one order: a spread of `item`, whose shape differs between jobs and
      // batch inputs, took V8's slow generic copy, 1.7 % of a sign-up server's main thread.
      const queued: Queued = {
        job: item.job,
        kind: item.kind,
        input: item.input,
        resolve: resolve as (v: unknown) => void,
        reject,
        done: false,
        deadline: performance.now() + this.deadlineMs,
      };
      this.queue.push(queued);
      this.waiting.push(queued);
      this.deadlineTimer ??= setTimeout(this.expire, this.deadlineMs);
      if (!this.draining) void this.drain();
    });
  }

  /** Once every caller has been answered, the deadline timer has nothing left to watch. */
  private forgetAnswered(): void {
    while (this.waiting[this.waitingHead]?.done) this.waitingHead++;
    if (this.waitingHead < this.waiting.length) return;
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = undefined;
    this.waiting = [];
    this.waitingHead = 0;
  }

  /** Tells every caller past its deadline "unavailable", then waits for the next oldest one. */
  private readonly expire = (): void => {
    this.deadlineTimer = undefined;
    const now = performance.now();
    for (; this.waitingHead < this.waiting.length; this.waitingHead++) {
      const item = this.waiting[this.waitingHead] as Queued;
      if (item.done) continue;
      if (item.deadline > now) break;
      rejectItem(item, new StoreUnavailableError());
    }
    // Drop what has been answered, once it is most of the array (amortised O(1) per caller).
    if (this.waitingHead > 1024 && this.waitingHead * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.waitingHead);
      this.waitingHead = 0;
    }
    const oldest = this.waiting[this.waitingHead];
    if (oldest) this.deadlineTimer = setTimeout(this.expire, Math.max(1, oldest.deadline - now));
    else {
      this.waiting = [];
      this.waitingHead = 0;
    }
  };

  /** Resolves once every queued job has settled (for graceful shutdown). */
  idle(): Promise<void> {
    if (!this.draining) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** One output per item, in order, once the batch's writes have committed. */
  private runBatch(db: Kysely<Database>, batch: Queued[], alone: boolean): Promise<unknown[]> {
    const kind = batch[0]?.kind;
    if (alone && kind?.runAlone) {
      return kind.runAlone(
        db,
        batch.map((item) => item.input),
      );
    }
    return db.transaction().execute(async (trx) => {
      const out: unknown[] = new Array(batch.length);
      const byKind = new Map<BatchKind<unknown, unknown>, number[]>();
      for (const [i, item] of batch.entries()) {
        if (!item.kind) out[i] = await runOne(trx, item);
        else {
          // Appended in place: copying the list at each item made a batch of n cost n² / 2 copies.
          const indexes = byKind.get(item.kind);
          if (indexes) indexes.push(i);
          else byKind.set(item.kind, [i]);
        }
      }
      for (const [kind, indexes] of byKind) {
        const outputs = await kind.run(
          trx,
          indexes.map((i) => batch[i]?.input),
        );
        indexes.forEach((i, k) => (out[i] = outputs[k]));
      }
      return out;
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.queue.length > 0) {
      // Let the event loop read the requests already waiting before we commit: with a
      // synchronous driver (better-sqlite3) the first job would otherwise commit alone, every
      // time, and nothing would ever group.
      await new Promise((resolve) => setImmediate(resolve));
      // Jobs whose callers were already told "unavailable" are dropped: they never run.
      const batch = this.queue.splice(0, this.maxBatch).filter((item) => !item.done);
      if (batch.length === 0) continue;
      this.batches++;
      const kind = batch[0]?.kind;
      const alone = kind?.runAlone !== undefined && batch.every((item) => item.kind === kind);
      try {
        const results = await this.runBatch(this.db, batch, alone);
        batch.forEach((item, i) => resolveItem(item, results[i]));
      } catch (batchError) {
        // A lone job that failed in a transaction of its own would fail again. A batch that ran
        // alone is retried even when it holds one input: read again, a row another instance wrote
        // between its read and its write is found, not run into (decision 0053).
        if ((batch.length === 1 && !alone) || isStoreUnavailable(batchError))
          batch.forEach((item) => rejectItem(item, batchError));
        else {
          for (const item of batch) {
            if (item.done) continue;
            await this.db
              .transaction()
              .execute((trx) => runOne(trx, item))
              .then(
                (value) => resolveItem(item, value),
                (error: unknown) => rejectItem(item, error),
              );
          }
        }
      }
    }
    this.draining = false;
    this.forgetAnswered();
    for (const w of this.idleWaiters.splice(0)) w();
  }
}
