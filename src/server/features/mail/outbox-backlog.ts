import type { Kysely } from 'kysely';
import type { OutboxBacklog } from '../../plugins/metrics.ts';
import type { Database } from '../../store/schema.ts';

/**
 * The outbox's pending rows by kind, with the creation time of the oldest: one grouped read over
 * the pending part of the `outbox_due` index (status first), so its cost follows the backlog, not
 * the table's history of sent mail. Read at scrape time only.
 */
export async function outboxBacklog(db: Kysely<Database>): Promise<OutboxBacklog[]> {
  const rows = await db
    .selectFrom('outbox')
    .select((eb) => ['kind', eb.fn.countAll<number | string>().as('pending'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .groupBy('kind')
    .execute();
  // PostgreSQL's count is a bigint, which its driver hands over as a string.
  return rows.map((r) => ({ kind: r.kind, pending: Number(r.pending), oldestCreatedAt: r.oldest }));
}
