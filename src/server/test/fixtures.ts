import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, SubscriberStatus } from '../store/schema.ts';

/**
 * A subscriber row written straight to the store, for tests of infrastructure (the outbox) that
 * must not depend on the sign-up feature's code. Features test their own rows through the app.
 */
export async function insertSubscriber(
  db: Kysely<Database>,
  email: string,
  opts: { status?: SubscriberStatus; now?: Date } = {},
): Promise<string> {
  const now = (opts.now ?? new Date()).toISOString();
  await db
    .insertInto('consent_wordings')
    .values({ version: 'test', text: 'test wording', created_at: now })
    .onConflict((oc) => oc.column('version').doNothing())
    .execute();
  const id = randomUUID();
  await db
    .insertInto('subscribers')
    .values({
      id,
      email,
      email_key: email.toLowerCase(),
      name: 'Test',
      comment: '',
      status: opts.status ?? 'pending',
      created_at: now,
      updated_at: now,
      confirmed_at: null,
      unsubscribed_at: null,
      last_confirmation_at: now,
      consent_version: 'test',
      consent_at: now,
      consent_page: '/',
      country: null,
      region: null,
      city: null,
    })
    .execute();
  return id;
}
