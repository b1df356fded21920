import { randomUUID } from 'node:crypto';
import { PostgresAdapter, type Kysely } from 'kysely';
import { z } from 'zod/mini';
import {
  type BroadcastDraft,
  type BroadcastDraftInput,
  broadcastTranslationsSchema,
} from '../../../shared/admin/broadcast-schema.ts';
import type { AuditLogTable, BroadcastsTable, Database } from '../../store/schema.ts';
import { recordAudit } from '../audit/index.ts';
import { operatorKey } from '../operators/index.ts';
import { completeDraft, hashNote, textHash, textNote, versionsNote } from './broadcast-text.ts';

// A broadcast's life, in the database (docs/decisions/0015-launch-broadcast.md). Every change of
// state is one conditional UPDATE (`… WHERE status = <the state it leaves>`), so two clicks or two
// operators racing each other change it once: the loser's UPDATE matches no row.
//
// What may go out is decided inside the transaction that acts on it (decision 0028): saving the
// text, approving it, revoking an approval and starting the send each lock the broadcast's row
// first (SELECT … FOR UPDATE on PostgreSQL; on SQLite every transaction holds the write lock from
// its BEGIN IMMEDIATE, database.ts), then read the stored text and decide on it. So a save either
// lands before the send's check (and is what the guard and the approval are checked against) or
// waits and finds the broadcast no longer a draft; the text the composer reads at send time is
// the text that was checked.
//
// This file keeps the rows and the drafts; approving is broadcast-approval.ts, sending and what
// follows it broadcast-sending.ts, what the console shows broadcast-view.ts.

export const BROADCAST_KIND = 'broadcast';

/** Who acts, for the audit rows written in the same transaction as the change. */
export interface Actor {
  email: string;
  via: AuditLogTable['via'];
}

/** The stored row's versions (migration 0021: '{}' and 1 on rows written before it). */
export function draftOf(b: BroadcastsTable): BroadcastDraft {
  // Written only by this file from a checked draft; a row that does not parse is a fault, not input.
  const translations = broadcastTranslationsSchema.parse(JSON.parse(b.translations));
  return { subject: b.subject, body: b.body, translations, englishFallback: b.english_fallback !== 0 };
}

/**
 * Who changed the text since an approval last covered their change (migration 0026). Written only
 * by this file; a row that does not parse is a fault, not input.
 */
export const editorsOf = (b: Pick<BroadcastsTable, 'editors'>): string[] =>
  z.array(z.string()).parse(JSON.parse(b.editors));

export const sameOperator = (a: string, b: string): boolean => operatorKey(a) === operatorKey(b);

/**
 * The editors after `by` changed the text. An edit that voids a standing approval starts the list
 * again with its own editor: that approval was given for a text holding every earlier change. Any
 * other edit joins the list, which an approval does not clear (only the next voiding edit does)
 * and a revoke leaves alone (a revoked approval vouches for nothing).
 */
function editorsAfter(before: readonly string[], by: string, voidedAnApproval: boolean): string[] {
  if (voidedAnApproval) return [by];
  return before.some((e) => sameOperator(e, by)) ? [...before] : [...before, by];
}

/** The broadcast's row, locked until the transaction ends (see the top of this file). */
export function lockRow(trx: Kysely<Database>, id: string): Promise<BroadcastsTable | undefined> {
  const q = trx.selectFrom('broadcasts').selectAll().where('id', '=', id);
  return (trx.getExecutor().adapter instanceof PostgresAdapter ? q.forUpdate() : q).executeTakeFirst();
}

/**
 * Acts on a draft in one transaction, its row locked first (see the top of this file): a broadcast
 * that is gone, or is no longer a draft, is said so and left alone.
 */
export function onLockedDraft<T>(
  db: Kysely<Database>,
  id: string,
  act: (trx: Kysely<Database>, b: BroadcastsTable) => Promise<T>,
): Promise<T | { outcome: 'missing' } | { outcome: 'not-draft' }> {
  return db.transaction().execute(async (trx) => {
    const b = await lockRow(trx, id);
    if (!b) return { outcome: 'missing' as const };
    if (b.status !== 'draft') return { outcome: 'not-draft' as const };
    return act(trx, b);
  });
}

/**
 * The columns that end a standing approval, by an edit or a revoke: the console shows whose
 * approval lapsed, and who ended it, when and how, until another approval is given.
 */
export const approvalLapsed = (
  b: BroadcastsTable,
  by: string,
  at: string,
  reason: NonNullable<BroadcastsTable['lapsed_reason']>,
) => ({
  approved_by: null,
  approved_at: null,
  approved_hash: null,
  lapsed_approved_by: b.approved_by,
  lapsed_approved_at: b.approved_at,
  lapsed_by: by,
  lapsed_at: at,
  lapsed_reason: reason,
});

export async function createDraft(
  db: Kysely<Database>,
  input: BroadcastDraftInput,
  by: string,
  now: Date,
): Promise<string> {
  const draft = completeDraft(input);
  const id = randomUUID();
  await db
    .insertInto('broadcasts')
    .values({
      id,
      subject: draft.subject,
      body: draft.body,
      status: 'draft',
      created_by: by,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      updated_by: by,
      sent_by: null,
      sent_at: null,
      recipients: null,
      approved_by: null,
      approved_at: null,
      approved_hash: null,
      lapsed_approved_by: null,
      lapsed_approved_at: null,
      lapsed_by: null,
      lapsed_at: null,
      lapsed_reason: null,
      paused_by: null,
      paused_reason: null,
      paused_at: null,
      pause_overridden_by: null,
      translations: JSON.stringify(draft.translations),
      english_fallback: draft.englishFallback ? 1 : 0,
      // The author is barred from approving by `created_by`; editors are those who came after.
      editors: '[]',
    })
    .execute();
  return id;
}

export type SaveOutcome =
  | { outcome: 'saved'; hash: string; voided: string | null }
  /** The same text as stored: not an edit, so nothing changes (an approval stands). */
  | { outcome: 'unchanged' }
  | { outcome: 'not-draft' }
  | { outcome: 'missing' };

/**
 * Saves a draft's versions, with its audit row (who, the new text's hash, which locales), in one
 * transaction on the locked row. A change to any version, or to the fallback, voids the approval:
 * it was given for another text.
 */
export async function saveDraft(
  db: Kysely<Database>,
  id: string,
  input: BroadcastDraftInput,
  actor: Actor,
  now: Date,
): Promise<SaveOutcome> {
  const draft = completeDraft(input);
  return onLockedDraft(db, id, async (trx, b): Promise<SaveOutcome> => {
    const hash = textHash(draft);
    if (hash === textHash(draftOf(b))) return { outcome: 'unchanged' };
    const at = now.toISOString();
    const voided = b.approved_by;
    await trx
      .updateTable('broadcasts')
      .set({
        subject: draft.subject,
        body: draft.body,
        translations: JSON.stringify(draft.translations),
        english_fallback: draft.englishFallback ? 1 : 0,
        updated_at: at,
        updated_by: actor.email,
        editors: JSON.stringify(editorsAfter(editorsOf(b), actor.email, voided !== null)),
        ...(voided ? approvalLapsed(b, actor.email, at, 'edit') : {}),
      })
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .execute();
    const detail = voided
      ? `${hashNote(hash)}; voided the approval by ${voided}; ${versionsNote(draft)}`
      : textNote(draft);
    await recordAudit(trx, now, actor, { action: 'broadcast.edited', subject: id, detail });
    return { outcome: 'saved', hash, voided };
  });
}

export const findBroadcast = (db: Kysely<Database>, id: string): Promise<BroadcastsTable | undefined> =>
  db.selectFrom('broadcasts').selectAll().where('id', '=', id).executeTakeFirst();

export const listBroadcasts = (db: Kysely<Database>): Promise<BroadcastsTable[]> =>
  db.selectFrom('broadcasts').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(100).execute();
