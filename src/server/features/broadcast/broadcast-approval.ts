import type { Kysely } from 'kysely';
import { approvalRefusal } from '../../../shared/admin/broadcast-schema.ts';
import type { OperatorRole } from '../../../shared/admin/roles.ts';
import type { BroadcastsTable, Database } from '../../store/schema.ts';
import { recordAudit } from '../audit/index.ts';
import { operatorKey } from '../operators/index.ts';
import { type Actor, approvalLapsed, draftOf, editorsOf, onLockedDraft, sameOperator } from './broadcast-store.ts';
import { hashNote, textHash, textNote } from './broadcast-text.ts';

// A second operator's approval (decision 0028): given and taken back on the locked row
// (broadcast-store.ts says why), and checked again by the send, in its own transaction, against
// the text and the operators as they are then.

export type ApproveOutcome =
  | { outcome: 'approved' }
  | { outcome: 'missing' }
  | { outcome: 'not-draft' }
  /** This operator may not approve it (wrote it, edited it last): the sentence says why. */
  | { outcome: 'refused'; refusal: string }
  | { outcome: 'already'; approvedBy: string }
  /** The text is no longer the one the approver read. */
  | { outcome: 'changed' };

/**
 * A second operator's approval of exactly the text they read (`hash`), on the locked row, with
 * its audit row.
 */
export async function approve(
  db: Kysely<Database>,
  id: string,
  approver: Actor & { role: OperatorRole },
  hash: string,
  now: Date,
): Promise<ApproveOutcome> {
  return onLockedDraft(db, id, async (trx, b): Promise<ApproveOutcome> => {
    const stored = textHash(draftOf(b));
    const refusal = approvalRefusal(approver, {
      state: 'draft',
      createdBy: b.created_by,
      updatedBy: b.updated_by ?? b.created_by,
      editors: editorsOf(b),
      approval: null,
    });
    if (refusal) return { outcome: 'refused', refusal };
    if (b.approved_by && b.approved_hash === stored) return { outcome: 'already', approvedBy: b.approved_by };
    if (hash !== stored) return { outcome: 'changed' };
    await trx
      .updateTable('broadcasts')
      .set({ approved_by: approver.email, approved_at: now.toISOString(), approved_hash: stored })
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .execute();
    await recordAudit(trx, now, approver, { action: 'broadcast.approved', subject: id, detail: textNote(draftOf(b)) });
    return { outcome: 'approved' };
  });
}

export type RevokeOutcome =
  { outcome: 'revoked'; approvedBy: string } | { outcome: 'missing' } | { outcome: 'not-draft' } | { outcome: 'none' };

/** Takes an approval back (the approver, or any other sender), with its audit row. */
export async function revokeApproval(
  db: Kysely<Database>,
  id: string,
  actor: Actor,
  now: Date,
): Promise<RevokeOutcome> {
  return onLockedDraft(db, id, async (trx, b): Promise<RevokeOutcome> => {
    if (!b.approved_by) return { outcome: 'none' };
    const at = now.toISOString();
    await trx
      .updateTable('broadcasts')
      .set(approvalLapsed(b, actor.email, at, 'revoked'))
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .execute();
    await recordAudit(trx, now, actor, {
      action: 'broadcast.approval-revoked',
      subject: id,
      detail: `the approval by ${b.approved_by} (${hashNote(b.approved_hash ?? textHash(draftOf(b)))})`,
    });
    return { outcome: 'revoked', approvedBy: b.approved_by };
  });
}

/** The approval that lets this text go out, or why there is none. */
export async function standingApproval(
  trx: Kysely<Database>,
  b: BroadcastsTable,
  hash: string,
): Promise<{ by: string } | { problem: string }> {
  const by = b.approved_by;
  if (!by) return { problem: 'nobody has approved it' };
  if (b.approved_hash !== hash) return { problem: `the text is not the one ${by} approved` };
  const same = (a: string | null) => a !== null && sameOperator(a, by);
  if (same(b.created_by) || same(b.updated_by) || editorsOf(b).some(same))
    return { problem: `${by} wrote or edited it, so it needs another approval` };
  const approver = await trx
    .selectFrom('operators')
    .select('role')
    .where('email_key', '=', operatorKey(by))
    .executeTakeFirst();
  if (!approver || approver.role === 'viewer') return { problem: `${by} may no longer approve broadcasts` };
  return { by };
}
