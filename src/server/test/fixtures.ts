import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Composer } from '../features/mail/index.ts';
import { OutboxWorker, type OutboxWorkerOptions } from '../features/mail/outbox-worker.ts';
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

/** Many confirmed subscribers at once (a broadcast's list), in chunks: one insert per row is slow on PostgreSQL. */
export async function insertConfirmedSubscribers(
  db: Kysely<Database>,
  emails: readonly string[],
  now: Date,
): Promise<string[]> {
  const [first, ...rest] = emails;
  if (first === undefined) return [];
  const ids = [await insertSubscriber(db, first, { status: 'confirmed', now })];
  const at = now.toISOString();
  for (let i = 0; i < rest.length; i += 200) {
    const rows = rest.slice(i, i + 200).map((email) => ({
      id: randomUUID(),
      email,
      email_key: email.toLowerCase(),
      name: 'Test',
      comment: '',
      status: 'confirmed' as const,
      created_at: at,
      updated_at: at,
      confirmed_at: at,
      unsubscribed_at: null,
      last_confirmation_at: at,
      consent_version: 'test',
      consent_at: at,
      consent_page: '/',
      country: null,
      region: null,
      city: null,
    }));
    await db.insertInto('subscribers').values(rows).execute();
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

/** The mail tests' one kind of email, 'note': a short email to the row's subscriber, or none once they have left. */
export const noteComposer =
  (db: Kysely<Database>, subject = 'A note'): Composer =>
  async (row) => {
    const to = await db
      .selectFrom('subscribers')
      .select(['email', 'status'])
      .where('id', '=', row.subscriber_id)
      .executeTakeFirst();
    if (!to || to.status === 'unsubscribed') return 'cancel';
    return { to: to.email, subject, text: 'Hello', html: '<p>Hello</p>' };
  };

/** The outbox worker sending 'note' rows (noteComposer) through `mailer`, as the app's worker does. */
export const noteWorker = (opts: Omit<OutboxWorkerOptions, 'kinds'> & { subject?: string }): OutboxWorker => {
  const { subject, ...options } = opts;
  return new OutboxWorker({ ...options, kinds: new Map([['note', noteComposer(opts.db, subject)]]) });
};
