import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { addDays, dayOf } from '../../lib/days.ts';
import type { Database } from '../../store/schema.ts';

/**
 * Unique visitors without identifying anyone (the Plausible approach,
 * https://plausible.io/data-policy#how-we-count-unique-users-without-cookies): a keyed hash of
 * (daily salt, address, user agent). Each UTC day gets a random salt, shared through the database
 * by every instance; salts are deleted once 48 hours have passed since their day began, after
 * which no hash can be linked back to an address, even by us.
 */
export class DailySalts {
  private cache = new Map<string, string>();

  constructor(private readonly db: Kysely<Database>) {}

  async saltFor(day: string): Promise<string> {
    const cached = this.cache.get(day);
    if (cached) return cached;
    await this.db
      .insertInto('analytics_salts')
      .values({ day, salt: randomBytes(32).toString('base64url') })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('analytics_salts')
      .select('salt')
      .where('day', '=', day)
      .executeTakeFirstOrThrow();
    this.cache.set(day, row.salt);
    return row.salt;
  }

  /** Destroys every salt whose day began 48 hours or more ago. */
  async purge(now: Date): Promise<void> {
    const keepFrom = addDays(dayOf(now), -1);
    await this.db.deleteFrom('analytics_salts').where('day', '<', keepFrom).execute();
    for (const day of this.cache.keys()) if (day < keepFrom) this.cache.delete(day);
  }
}

export const visitorHash = (salt: string, address: string, userAgent: string): string =>
  createHmac('sha256', salt).update(`${address}\n${userAgent}`).digest('base64url').slice(0, 22);
