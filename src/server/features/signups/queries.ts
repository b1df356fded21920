// Questions other features ask about the list (counts per day and locale, who is confirmed). The
// feature's door is index.ts; this module holds only reads of its own.
import { sql, type Kysely } from 'kysely';
import { addDays } from '../../lib/days.ts';
import type { Database } from '../../store/schema.ts';

// The sign-up itself, for a feature that signs a person up on their behalf (the allowlist's email
// link): the same batch, checks, cool-down and suppression as the form's.

/**
 * Sign-ups on each UTC day from `from` to `to` (inclusive); days with none are absent. Read from
 * the daily roll-up, which counts every sign-up when it happens and keeps counting it after the
 * person is erased, so the audience's totals never drop.
 */
export async function signupsPerDay(db: Kysely<Database>, from: string, to: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('daily_signups')
    .select(['day', 'signups'])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.signups)]));
}

/**
 * Sign-ups per locale they signed up in, for UTC days `from` to `to` (both included), from the
 * subscribers themselves: the daily roll-up has no locale. So, unlike the day counts, an erased
 * person is no longer counted here (their row, and with it their locale, is gone).
 *
 * One count per locale present, each a range of the (locale, created_at, id) index (migration
 * 0021) that never reads a row, found by a loose index scan (one index probe per locale): a single
 * GROUP BY over the period reads every sign-up's row instead: 1.4–1.9 s for 90 days of a million
 * sign-ups, against about 50 ms for these (an in-memory SQLite table, load 8; decision 0048).
 */
export async function signupsPerLocale(db: Kysely<Database>, from: string, to: string): Promise<Map<string, number>> {
  const present = await sql<{ locale: string | null }>`with recursive l(locale) as (
      select min(locale) from subscribers
      union all
      select (select min(s.locale) from subscribers s where s.locale > l.locale) from l where l.locale is not null
    ) select locale from l where locale is not null`.execute(db);
  const counts = await Promise.all(
    present.rows.flatMap(({ locale }) =>
      locale === null
        ? []
        : [
            db
              .selectFrom('subscribers')
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .where('locale', '=', locale)
              .where('created_at', '>=', `${from}T00:00:00.000Z`)
              .where('created_at', '<', `${addDays(to, 1)}T00:00:00.000Z`)
              .executeTakeFirstOrThrow()
              .then((r): [string, number] => [locale, Number(r.n)]),
          ],
    ),
  );
  return new Map(counts.filter(([, n]) => n > 0));
}

/** The confirmed subscribers' ids and address keys (the suppression list is matched on the key). */
export async function confirmedSubscribers(
  db: Kysely<Database>,
): Promise<{ id: string; emailKey: string; locale: string }[]> {
  const rows = await db
    .selectFrom('subscribers')
    .select(['id', 'email_key', 'locale'])
    .where('status', '=', 'confirmed')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, emailKey: r.email_key, locale: r.locale }));
}

/** A subscriber's address, if they are still confirmed (a list email goes to nobody else). */
export async function confirmedAddress(db: Kysely<Database>, subscriberId: string): Promise<string | null> {
  return (await confirmedRecipient(db, subscriberId))?.email ?? null;
}

/**
 * A confirmed subscriber's address and the locale they signed up in (a broadcast picks its version
 * by it); null when they are no longer confirmed.
 */
export async function confirmedRecipient(
  db: Kysely<Database>,
  subscriberId: string,
): Promise<{ email: string; locale: string } | null> {
  const row = await db
    .selectFrom('subscribers')
    .select(['email', 'status', 'locale'])
    .where('id', '=', subscriberId)
    .executeTakeFirst();
  return row?.status === 'confirmed' ? { email: row.email, locale: row.locale } : null;
}
