import type { Kysely } from 'kysely';
import { suppressedSentence, type StandingSuppression } from '../../../shared/admin/mail-status.ts';
import type { Database } from '../../store/schema.ts';
import { newOutboxRow } from '../mail/index.ts';
import { recordInLedgerTable, type LedgerEntry } from '../../store/erasure-ledger.ts';
import { CONFIRMATION_COOLDOWN_MS, CONFIRMATION_KIND } from '../signups/index.ts';

// What an operator may do to one person. The admin feature writes the audit entry and, after a
// resend, nudges the outbox (app.outbox.nudge()) so the email goes out now.

export type ResendResult =
  | { outcome: 'queued'; nextAllowedAt: string }
  | { outcome: 'cooling-down'; retryAt: string }
  | { outcome: 'not-pending'; status: 'confirmed' | 'unsubscribed' }
  /** Their address is on the suppression list: nothing was queued (the worker would cancel it). */
  | { outcome: 'suppressed'; suppression: StandingSuppression }
  | { outcome: 'unknown' };

export interface ResendOptions {
  /**
   * The address's standing suppression, asked in the resend's transaction (the admin feature knows
   * the suppression list's keyed hashes; this feature does not).
   */
  suppressionOf?: (trx: Kysely<Database>, address: string) => Promise<StandingSuppression | null>;
}

/**
 * Queues another confirmation email for a pending person, as a repeat sign-up would: at most one
 * per CONFIRMATION_COOLDOWN_MS. The check and the claim are one conditional UPDATE, so two
 * operators clicking at once queue one email, not two. A suppressed address gets nothing queued and
 * its cool-down is not spent: the answer says why, rather than that an email is on its way which
 * the worker would then cancel.
 */
export async function resendConfirmation(
  db: Kysely<Database>,
  id: string,
  now: Date,
  opts: ResendOptions = {},
): Promise<ResendResult> {
  const cutoff = new Date(now.getTime() - CONFIRMATION_COOLDOWN_MS).toISOString();
  return db.transaction().execute(async (trx): Promise<ResendResult> => {
    if (opts.suppressionOf) {
      const person = await trx
        .selectFrom('subscribers')
        .select(['email', 'status'])
        .where('id', '=', id)
        .executeTakeFirst();
      const suppression = person?.status === 'pending' ? await opts.suppressionOf(trx, person.email) : null;
      if (suppression) return { outcome: 'suppressed', suppression };
    }
    const claimed = await trx
      .updateTable('subscribers')
      .set({ last_confirmation_at: now.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('last_confirmation_at', 'is', null), eb('last_confirmation_at', '<=', cutoff)]))
      .executeTakeFirst();
    if (claimed.numUpdatedRows > 0n) {
      await trx
        .insertInto('outbox')
        .values(newOutboxRow(CONFIRMATION_KIND, id, now))
        .execute();
      return { outcome: 'queued', nextAllowedAt: new Date(now.getTime() + CONFIRMATION_COOLDOWN_MS).toISOString() };
    }
    const row = await trx
      .selectFrom('subscribers')
      .select(['status', 'last_confirmation_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return { outcome: 'unknown' };
    if (row.status !== 'pending') return { outcome: 'not-pending', status: row.status };
    const retryAt = Date.parse(row.last_confirmation_at ?? now.toISOString()) + CONFIRMATION_COOLDOWN_MS;
    return { outcome: 'cooling-down', retryAt: new Date(retryAt).toISOString() };
  });
}

/** The result of a resend in words, for the console. */
export function resendMessage(result: ResendResult): string {
  switch (result.outcome) {
    case 'queued':
      return 'A new confirmation email is on its way.';
    case 'cooling-down':
      return `A confirmation email was sent less than ${CONFIRMATION_COOLDOWN_MS / 60_000} minutes ago; try again after ${result.retryAt.slice(11, 16)} UTC.`;
    case 'not-pending':
      return result.status === 'confirmed'
        ? 'This person has already confirmed; there is nothing to resend.'
        : 'This person has unsubscribed; only they can sign up again.';
    case 'suppressed':
      return suppressedSentence(result.suppression);
    case 'unknown':
      return 'There is no such subscriber (they may have been erased).';
  }
}

/**
 * Erases a person: their row and every email of theirs in the outbox, and their entry in the
 * erasure ledger (a keyed hash of the address, made by `ledgerEntry`), in one transaction. The
 * sign-up totals stay (daily_signups is never decremented), and nothing else refers to them. The
 * caller keeps the entry outside the database too (store/erasure-ledger.ts).
 */
export async function eraseSubscriber(
  db: Kysely<Database>,
  id: string,
  ledgerEntry: (emailKey: string) => LedgerEntry,
): Promise<{ outcome: 'erased'; entry: LedgerEntry } | { outcome: 'unknown' }> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('subscribers').select('email_key').where('id', '=', id).executeTakeFirst();
    if (!row) return { outcome: 'unknown' as const };
    await trx.deleteFrom('outbox').where('subscriber_id', '=', id).execute();
    await trx.deleteFrom('subscribers').where('id', '=', id).execute();
    const entry = ledgerEntry(row.email_key);
    await recordInLedgerTable(trx, [entry]);
    return { outcome: 'erased' as const, entry };
  });
}
