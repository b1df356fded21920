import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { addDays, dayOf } from '../../lib/days.ts';

/**
 * Raw visits are already rolled up at ingest (daily_counts), so retention only deletes: raw rows
 * older than the retention window, and the per-day visitor sets once their day can no longer
 * receive visits. (Salts are destroyed by their own job: DailySalts.purge, after 48 hours.)
 */
export async function purgeAnalytics(db: Kysely<Database>, now: Date, retentionDays: number): Promise<void> {
  const today = dayOf(now);
  await db.deleteFrom('visits').where('day', '<', addDays(today, -retentionDays)).execute();
  await db.deleteFrom('daily_visitors').where('day', '<', addDays(today, -1)).execute();
}
