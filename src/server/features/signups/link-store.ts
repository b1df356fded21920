import type { Kysely } from 'kysely';
import type { Database, SubscriberStatus } from '../../store/schema.ts';
import { CONFIRMATION_KIND } from './signup-plan.ts';
import { hashToken } from './tokens.ts';

// What the links in a subscriber's emails do to the store: confirm (single use, expiring) and
// unsubscribe, and what a link would do, asked without doing it (a GET must change nothing).

export type ConfirmResult = 'confirmed' | 'already-confirmed' | 'expired' | 'invalid';
export type ConfirmLinkState = 'pending' | 'already-confirmed' | 'expired' | 'invalid';

const wellFormedToken = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

function findConfirmLink(db: Kysely<Database>, token: string) {
  return db
    .selectFrom('outbox')
    .innerJoin('subscribers', 'subscribers.id', 'outbox.subscriber_id')
    .select(['outbox.subscriber_id', 'outbox.token_expires_at', 'subscribers.status'])
    .where('outbox.token_hash', '=', hashToken(token))
    .executeTakeFirst();
}

const isExpired = (expiresAt: string | null, now: Date) => expiresAt === null || Date.parse(expiresAt) < now.getTime();

/**
 * What a confirmation link would do if pressed, without doing it: opening a link (GET, HEAD, a
 * mail scanner) must change nothing and spend nothing.
 */
export async function inspectConfirmLink(db: Kysely<Database>, token: string, now: Date): Promise<ConfirmLinkState> {
  if (!wellFormedToken(token)) return 'invalid';
  const row = await findConfirmLink(db, token);
  if (!row) return 'invalid';
  if (isExpired(row.token_expires_at, now)) return 'expired';
  return row.status === 'confirmed' ? 'already-confirmed' : 'pending';
}

/**
 * What else happens when a person confirms, inside the same transaction (the referrals feature:
 * their invite is decided, their own invite code made); also when they were confirmed already.
 */
export type OnConfirmed = (trx: Kysely<Database>, subscriberId: string) => Promise<void>;

/** Presses a confirmation link: single use, valid for 7 days from sending. */
export async function confirmSubscriber(
  db: Kysely<Database>,
  token: string,
  now: Date,
  onConfirmed?: OnConfirmed,
): Promise<ConfirmResult> {
  if (!wellFormedToken(token)) return 'invalid';
  return db.transaction().execute(async (trx) => {
    // Single use, taken in one step: the token is spent by a conditional UPDATE before anything
    // else. Two presses at once (on any instance) both find it in a read, but only one UPDATE
    // still matches it once the other has committed (PostgreSQL re-checks the WHERE clause after
    // the row's lock), so the person is confirmed, and their invite decided, once
    // (docs/decisions/0063).
    const spent = await trx
      .updateTable('outbox')
      .set({ token_hash: null, token_expires_at: null })
      .where('token_hash', '=', hashToken(token))
      .where('token_expires_at', '>=', now.toISOString())
      .returning('subscriber_id')
      .executeTakeFirst();
    const subscriberId = spent?.subscriber_id;
    if (!subscriberId) return (await findConfirmLink(trx, token)) ? 'expired' : 'invalid';
    // Every other outstanding confirmation link of this person stops working too.
    await trx
      .updateTable('outbox')
      .set({ token_hash: null, token_expires_at: null })
      .where('subscriber_id', '=', subscriberId)
      .where('kind', '=', CONFIRMATION_KIND)
      .execute();
    const moved = await trx
      .updateTable('subscribers')
      .set({
        status: 'confirmed',
        confirmed_at: now.toISOString(),
        updated_at: now.toISOString(),
        unsubscribed_at: null,
      })
      .where('id', '=', subscriberId)
      .where('status', '!=', 'confirmed')
      .executeTakeFirst();
    await onConfirmed?.(trx, subscriberId);
    return Number(moved.numUpdatedRows) > 0 ? 'confirmed' : 'already-confirmed';
  });
}

/** A subscriber's status, or null when there is no such subscriber (never was, or erased). */
export async function subscriberStatus(db: Kysely<Database>, subscriberId: string): Promise<SubscriberStatus | null> {
  const row = await db.selectFrom('subscribers').select('status').where('id', '=', subscriberId).executeTakeFirst();
  return row?.status ?? null;
}

/** Unsubscribes; pending mail to this person is cancelled in the same transaction. */
export async function unsubscribeSubscriber(
  db: Kysely<Database>,
  subscriberId: string,
  now: Date,
): Promise<'unsubscribed' | 'unknown'> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('subscribers')
      .set({ status: 'unsubscribed', unsubscribed_at: now.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', subscriberId)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return 'unknown';
    await trx
      .updateTable('outbox')
      .set({ status: 'cancelled' })
      .where('subscriber_id', '=', subscriberId)
      .where('status', '=', 'pending')
      .execute();
    // A confirmation link from before must not quietly put them back on the list.
    await trx
      .updateTable('outbox')
      .set({ token_hash: null, token_expires_at: null })
      .where('subscriber_id', '=', subscriberId)
      .execute();
    return 'unsubscribed';
  });
}
