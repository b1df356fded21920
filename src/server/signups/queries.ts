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
