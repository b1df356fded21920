// The sign-ups feature's public surface for other features: read-only questions about the list.
// Other features import this module only, never the feature's other files (enforced by ESLint).
import type { Kysely } from 'kysely';
import { addDays } from '../lib/days.ts';
import type { Database } from '../store/schema.ts';

/** Sign-ups created on each UTC day from `from` to `to` (inclusive); days with none are absent. */
export async function signupsPerDay(db: Kysely<Database>, from: string, to: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('subscribers')
    .select((eb) => [eb.fn<string>('substr', ['created_at', eb.val(1), eb.val(10)]).as('day'), eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', `${from}T00:00:00.000Z`)
    .where('created_at', '<', `${addDays(to, 1)}T00:00:00.000Z`)
    .groupBy('day')
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}

// For the console's broadcast (src/server/admin/broadcast-*.ts).
export { unsubscribeUrl } from './unsubscribe-link.ts';

/** Every confirmed subscriber's id, in sign-up order (a broadcast's recipients, snapshotted). */
export async function confirmedSubscriberIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('subscribers').select('id').where('status', '=', 'confirmed').orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** A subscriber's address, if they are still confirmed (a list email goes to nobody else). */
export async function confirmedAddress(db: Kysely<Database>, subscriberId: string): Promise<string | null> {
  const row = await db.selectFrom('subscribers').select(['email', 'status']).where('id', '=', subscriberId).executeTakeFirst();
  return row?.status === 'confirmed' ? row.email : null;
}
