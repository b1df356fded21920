import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

export type Job<T> = (trx: Transaction<Database>) => Promise<T>;

interface Queued {
  job: Job<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: while one transaction is committing, jobs that arrive wait and then share the
 * next transaction, so a burst costs one durable commit (one fsync) per batch instead of one per
 * job, and an idle server adds no delay. Each caller's promise settles only after its batch has
 * committed. If a batch fails, its jobs are retried one per transaction so one bad job cannot
 * take the others down with it.
 */
export class GroupCommitter {
  private queue: Queued[] = [];
  private draining = false;
  private idleWaiters: (() => void)[] = [];
  batches = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxBatch = 200,
  ) {}

  run<T>(job: Job<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ job, resolve: resolve as (v: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** Resolves once every queued job has settled (for graceful shutdown). */
  idle(): Promise<void> {
    if (!this.draining) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.batches++;
      try {
        const results = await this.db.transaction().execute(async (trx) => {
          const out: unknown[] = [];
          for (const item of batch) out.push(await item.job(trx));
          return out;
        });
        batch.forEach((item, i) => item.resolve(results[i]));
      } catch (batchError) {
        if (batch.length === 1) batch[0]?.reject(batchError);
        else {
          for (const item of batch) {
            await this.db
              .transaction()
              .execute(item.job)
              .then(item.resolve, item.reject);
          }
        }
      }
    }
    this.draining = false;
    for (const w of this.idleWaiters.splice(0)) w();
  }
}
