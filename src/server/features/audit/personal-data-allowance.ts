import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';

// How many personal records each operator reads per UTC day (subscribers, referrers), shared by every instance (one row per
// operator and day in the database: migration 0013). A record is one person's details opened, one
// search, or one row exported (docs/decisions/0029). Within the allowance a session reads freely;
// past it, each read needs fresh proof (an authenticator code in the last five minutes), which a
// stolen session cookie does not carry. The allowance is PERSONAL_DATA_DAILY_ALLOWANCE (subscribers-config.ts):
// 200 by default, a busy support day and far below a list's worth.

export interface PersonalReads {
  /** Records this operator has read today (UTC), this one included. */
  records: number;
  /** Whether this read went past the allowance (it had fresh proof). */
  pastAllowance: boolean;
}

const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * Counts `n` records for the operator today. With `freshProof` the count always goes up; without
 * it, only while the total stays within `allowance`: otherwise nothing is counted and the answer
 * is null (ask for fresh proof). One conditional UPDATE, so two instances reading at once can
 * never both slip under the allowance.
 */
export async function countPersonalReads(
  db: Kysely<Database>,
  input: { operatorId: string; now: Date; n: number; allowance: number; freshProof: boolean },
): Promise<PersonalReads | null> {
  const day = utcDay(input.now);
  await db
    .insertInto('personal_data_reads')
    .values({ operator_id: input.operatorId, day })
    .onConflict((oc) => oc.columns(['operator_id', 'day']).doNothing())
    .execute();
  let update = db
    .updateTable('personal_data_reads')
    .set((eb) => ({ records: eb('records', '+', input.n) }))
    .where('operator_id', '=', input.operatorId)
    .where('day', '=', day);
  if (!input.freshProof) update = update.where((eb) => eb(eb('records', '+', input.n), '<=', input.allowance));
  const row = await update.returning('records').executeTakeFirst();
  if (!row) return null;
  const records = Number(row.records);
  return { records, pastAllowance: records > input.allowance };
}

/** Records the operator has read today (0 when none). */
export async function personalReadsToday(db: Kysely<Database>, operatorId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('personal_data_reads')
    .select('records')
    .where('operator_id', '=', operatorId)
    .where('day', '=', utcDay(now))
    .executeTakeFirst();
  return Number(row?.records ?? 0);
}

/** Forgets days older than a week (the audit log keeps what was read; this only meters). */
export async function purgeOldReads(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('personal_data_reads')
    .where('day', '<', utcDay(new Date(now.getTime() - 7 * 86_400_000)))
    .execute();
}

/** A note for the audit log: how many records today, and whether past the allowance. */
export const readsNote = (reads: PersonalReads, allowance: number): string =>
  reads.pastAllowance
    ? `${reads.records} personal records read today, past the daily allowance of ${allowance} (with fresh proof)`
    : `${reads.records} of ${allowance} personal records read today`;
