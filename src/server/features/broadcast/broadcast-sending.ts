import type { Kysely } from 'kysely';
import type { BroadcastApprovals, BroadcastDraft } from '../../../shared/admin/broadcast-schema.ts';
import type { BroadcastsTable, Database } from '../../store/schema.ts';
import { recordAudit } from '../audit/index.ts';
import { newOutboxRow } from '../mail/index.ts';
import { confirmedSubscribers } from '../signups/index.ts';
import { standingApproval } from './broadcast-approval.ts';
import { holdBack, PAUSED_AUTOMATICALLY } from './broadcast-brake.ts';
import { type Actor, BROADCAST_KIND, draftOf, lockRow, onLockedDraft } from './broadcast-store.ts';
import { hashNote, textHash, versionsNote } from './broadcast-text.ts';

// A broadcast from draft to its last row: the send that queues it, and the operator's pause,
// resume and cancel. Each is a conditional UPDATE on the state it leaves (broadcast-store.ts says
// why), in one transaction with the outbox rows it queues, holds back, frees or cancels.

/** What an operator's cancel writes on the rows it stops (a composer's cancel writes nothing). */
export const CANCELLED_BY_OPERATOR = 'cancelled by an operator';
const CHUNK = 500;

export interface SendPolicy {
  /** BROADCAST_APPROVALS: with 2, a valid approval of the stored text is needed. */
  approvals: BroadcastApprovals;
  /**
   * The address guard: why this text may not go out, or null (broadcast-routes.ts's refusalOf;
   * awaited, so a guard that must look something up can be asked inside the transaction too).
   */
  refusalOf: (draft: BroadcastDraft) => string | null | Promise<string | null>;
  /**
   * The suppression list (decision 0035): a confirmed subscriber with a standing suppression is
   * not queued at all. The worker's check just before sending stays the last line.
   */
  suppressions?: {
    /** Of these address keys, those with a standing suppression (mail/suppression.ts). */
    suppressedAmong(db: Kysely<Database>, keys: readonly string[]): Promise<Set<string>>;
  };
}

export type SendOutcome =
  | { outcome: 'started'; recipients: number; suppressed: number; approvedBy: string | null }
  | { outcome: 'missing' }
  /** Sent already (a double click, another operator) or cancelled. */
  | { outcome: 'not-draft' }
  | { outcome: 'refused'; refusal: string }
  /** No approval, or one that no longer holds (its text, or its approver, changed): the sentence says which. */
  | { outcome: 'unapproved'; reason: string };

/**
 * Draft → sending, and one outbox row per confirmed subscriber, in one transaction: the
 * recipients are the confirmed list at that instant, and either all of them are queued or none.
 * The same transaction first locks the row and decides on the text as stored: the address guard,
 * and (with two approvals) an approval of exactly that text by an operator who neither wrote nor
 * edited it. Its audit row names the approver, or says nobody approved it.
 */
export async function startSend(
  db: Kysely<Database>,
  id: string,
  actor: Actor,
  now: Date,
  policy: SendPolicy,
): Promise<SendOutcome> {
  return onLockedDraft(db, id, async (trx, b): Promise<SendOutcome> => {
    const draft = draftOf(b);
    const refusal = await policy.refusalOf(draft);
    if (refusal) return { outcome: 'refused', refusal };
    const hash = textHash(draft);
    const approval = await standingApproval(trx, b, hash);
    if ('problem' in approval && policy.approvals === 2) return { outcome: 'unapproved', reason: approval.problem };
    const approvedBy = 'by' in approval ? approval.by : null;

    const moved = await trx
      .updateTable('broadcasts')
      .set({ status: 'sending', sent_by: actor.email, sent_at: now.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return { outcome: 'not-draft' };
    const confirmed = await confirmedSubscribers(trx);
    const barred = policy.suppressions
      ? await policy.suppressions.suppressedAmong(
          trx,
          confirmed.map((c) => c.emailKey),
        )
      : new Set<string>();
    const ids = confirmed.filter((c) => !barred.has(c.emailKey)).map((c) => c.id);
    const suppressed = confirmed.length - ids.length;
    for (let i = 0; i < ids.length; i += CHUNK) {
      await trx
        .insertInto('outbox')
        .values(ids.slice(i, i + CHUNK).map((sid) => newOutboxRow(BROADCAST_KIND, sid, now, id)))
        .execute();
    }
    await trx.updateTable('broadcasts').set({ recipients: ids.length }).where('id', '=', id).execute();
    const queued = new Set(ids);
    const byLocale = new Map<string, number>();
    for (const c of confirmed) if (queued.has(c.id)) byLocale.set(c.locale, (byLocale.get(c.locale) ?? 0) + 1);
    const perLocale = [...byLocale].map(([l, n]) => `${l} ${n}`).join(', ');
    const to = `to ${ids.length} confirmed subscribers${suppressed ? ` (${suppressed} suppressed, not sent)` : ''}`;
    const note = `${hashNote(hash)}; ${versionsNote(draft)}${perLocale ? `; recipients by locale ${perLocale}` : ''}`;
    await recordAudit(
      trx,
      now,
      actor,
      approvedBy
        ? { action: 'broadcast.sent', subject: id, detail: `${to}, approved by ${approvedBy} (${note})` }
        : {
            action: 'broadcast.sent-unapproved',
            subject: id,
            detail: `${to}, approved by nobody: BROADCAST_APPROVALS=1 (${note})`,
          },
    );
    return { outcome: 'started', recipients: ids.length, suppressed, approvedBy };
  });
}

/**
 * Sending → paused, by an operator: rows not yet taken by a worker are held back (those in the
 * middle of their SMTP exchange finish; one that must be retried meets the composer, which holds it
 * too). A broadcast also pauses itself (broadcast-brake.ts).
 */
export async function pause(db: Kysely<Database>, id: string, by: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const at = now.toISOString();
    const r = await trx
      .updateTable('broadcasts')
      .set({ status: 'paused', updated_at: at, paused_by: by, paused_reason: null, paused_at: at })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await holdBack(trx, id, now);
    return true;
  });
}

/** A resume's outcome: `overrode` is the automatic pause's reason when there was one. */
export type ResumeOutcome = { resumed: false } | { resumed: true; overrode: string | null };

/**
 * Paused → sending; rows held back meanwhile are due at once. Only an operator resumes (the route
 * asks a sender's fresh proof); over an automatic pause, the row keeps who overrode it.
 */
export async function resume(db: Kysely<Database>, id: string, by: string, now: Date): Promise<ResumeOutcome> {
  return db.transaction().execute(async (trx): Promise<ResumeOutcome> => {
    const b = await lockRow(trx, id);
    if (b?.status !== 'paused') return { resumed: false };
    const overrode = b.paused_by === PAUSED_AUTOMATICALLY ? (b.paused_reason ?? 'paused automatically') : null;
    const r = await trx
      .updateTable('broadcasts')
      .set({ status: 'sending', updated_at: now.toISOString(), ...(overrode ? { pause_overridden_by: by } : {}) })
      .where('id', '=', id)
      .where('status', '=', 'paused')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return { resumed: false };
    await trx
      .updateTable('outbox')
      .set({ next_attempt_at: now.toISOString() })
      .where('broadcast_id', '=', id)
      .where('status', '=', 'pending')
      .execute();
    return { resumed: true, overrode };
  });
}

/**
 * A draft, sending or paused broadcast → cancelled; every row not yet taken by a worker is
 * cancelled with it (one in the middle of its SMTP exchange finishes, and counts as sent).
 */
export async function cancel(db: Kysely<Database>, id: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await move(trx, id, ['draft', 'sending', 'paused'], 'cancelled', now))) return false;
    await trx
      .updateTable('outbox')
      .set({ status: 'cancelled', last_error: CANCELLED_BY_OPERATOR })
      .where('broadcast_id', '=', id)
      .where('status', '=', 'pending')
      .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', now.toISOString())]))
      .execute();
    return true;
  });
}

async function move(
  db: Kysely<Database>,
  id: string,
  from: BroadcastsTable['status'][],
  to: BroadcastsTable['status'],
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('broadcasts')
    .set({ status: to, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
