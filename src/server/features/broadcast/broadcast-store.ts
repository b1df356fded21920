import { createHash, randomUUID } from 'node:crypto';
import { PostgresAdapter, type Kysely } from 'kysely';
import { z } from 'zod/mini';
import {
  approvalRefusal,
  type Broadcast,
  type BroadcastApprovals,
  type BroadcastDraft,
  type BroadcastDraftInput,
  type BroadcastProgress,
  type BroadcastState,
  broadcastTranslationsSchema,
  noProgress,
  translatedLocales,
  versionLocales,
} from '../../../shared/admin/broadcast-schema.ts';
import type { OperatorRole } from '../../../shared/admin/roles.ts';
import { newOutboxRow } from '../mail/index.ts';
import { confirmedSubscribers } from '../signups/index.ts';
import type { AuditLogTable, BroadcastsTable, Database } from '../../store/schema.ts';
import { recordAudit } from '../audit/index.ts';
import { holdBack, PAUSED_AUTOMATICALLY } from './broadcast-brake.ts';
import { operatorKey } from '../operators/index.ts';

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

export const BROADCAST_KIND = 'broadcast';
/** What an operator's cancel writes on the rows it stops (a composer's cancel writes nothing). */
const CANCELLED_BY_OPERATOR = 'cancelled by an operator';
const CHUNK = 500;

/** Who acts, for the audit rows written in the same transaction as the change. */
export interface Actor {
  email: string;
  via: AuditLogTable['via'];
}

/** A draft as the store keeps it: every version, and the fallback, spelled out. */
const complete = (d: BroadcastDraftInput): BroadcastDraft => ({
  subject: d.subject,
  body: d.body,
  translations: d.translations ?? {},
  englishFallback: d.englishFallback ?? true,
});

/** The stored row's versions (migration 0021: '{}' and 1 on rows written before it). */
export function draftOf(b: BroadcastsTable): BroadcastDraft {
  // Written only by this file from a checked draft; a row that does not parse is a fault, not input.
  const translations = broadcastTranslationsSchema.parse(JSON.parse(b.translations));
  return { subject: b.subject, body: b.body, translations, englishFallback: b.english_fallback !== 0 };
}

/**
 * SHA-256 (hex) of every version of a broadcast and whether English falls back: what an approval
 * binds to (so editing any version, or the fallback, voids it), and what the audit log records of
 * an edit instead of the text. JSON keeps the parts apart ("a" + "bc" ≠ "ab" + "c"). An
 * English-only broadcast that falls back (every broadcast before migration 0021) hashes as it did,
 * so approvals given before it still hold.
 */
export function textHash(input: BroadcastDraftInput): string {
  const d = complete(input);
  const versions = translatedLocales.flatMap((l) => {
    const v = d.translations[l];
    return v ? [[l, v.subject, v.body]] : [];
  });
  const parts =
    versions.length === 0 && d.englishFallback ? [d.subject, d.body] : [d.subject, d.body, d.englishFallback, versions];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Which locales have a version, and who gets English: for the audit log, never the text. */
export function versionsNote(input: BroadcastDraftInput): string {
  const d = complete(input);
  const own = versionLocales(d);
  const rest = translatedLocales.filter((l) => !d.translations[l]);
  const fallback = rest.length === 0 ? '' : d.englishFallback ? `; English for ${rest.join(', ')}` : '; no fallback';
  return `versions ${own.join(', ')}${fallback}`;
}

/**
 * Who changed the text since an approval last covered their change (migration 0026). Written only
 * by this file; a row that does not parse is a fault, not input.
 */
export const editorsOf = (b: Pick<BroadcastsTable, 'editors'>): string[] =>
  z.array(z.string()).parse(JSON.parse(b.editors));

const sameOperator = (a: string, b: string) => operatorKey(a) === operatorKey(b);

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

const hashNote = (hash: string) => `text sha256:${hash}`;
const textNote = (d: BroadcastDraftInput) => `${hashNote(textHash(d))}; ${versionsNote(d)}`;

/** The broadcast's row, locked until the transaction ends (see the top of this file). */
function lockRow(trx: Kysely<Database>, id: string): Promise<BroadcastsTable | undefined> {
  const q = trx.selectFrom('broadcasts').selectAll().where('id', '=', id);
  return (trx.getExecutor().adapter instanceof PostgresAdapter ? q.forUpdate() : q).executeTakeFirst();
}

export async function createDraft(
  db: Kysely<Database>,
  input: BroadcastDraftInput,
  by: string,
  now: Date,
): Promise<string> {
  const draft = complete(input);
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
  const draft = complete(input);
  return db.transaction().execute(async (trx): Promise<SaveOutcome> => {
    const b = await lockRow(trx, id);
    if (!b) return { outcome: 'missing' };
    if (b.status !== 'draft') return { outcome: 'not-draft' };
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
        ...(voided
          ? {
              approved_by: null,
              approved_at: null,
              approved_hash: null,
              lapsed_approved_by: voided,
              lapsed_approved_at: b.approved_at,
              lapsed_by: actor.email,
              lapsed_at: at,
              lapsed_reason: 'edit' as const,
            }
          : {}),
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
  return db.transaction().execute(async (trx): Promise<ApproveOutcome> => {
    const b = await lockRow(trx, id);
    if (!b) return { outcome: 'missing' };
    if (b.status !== 'draft') return { outcome: 'not-draft' };
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
  return db.transaction().execute(async (trx): Promise<RevokeOutcome> => {
    const b = await lockRow(trx, id);
    if (!b) return { outcome: 'missing' };
    if (b.status !== 'draft') return { outcome: 'not-draft' };
    if (!b.approved_by) return { outcome: 'none' };
    const at = now.toISOString();
    await trx
      .updateTable('broadcasts')
      .set({
        approved_by: null,
        approved_at: null,
        approved_hash: null,
        lapsed_approved_by: b.approved_by,
        lapsed_approved_at: b.approved_at,
        lapsed_by: actor.email,
        lapsed_at: at,
        lapsed_reason: 'revoked',
      })
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

export const findBroadcast = (db: Kysely<Database>, id: string): Promise<BroadcastsTable | undefined> =>
  db.selectFrom('broadcasts').selectAll().where('id', '=', id).executeTakeFirst();

export const listBroadcasts = (db: Kysely<Database>): Promise<BroadcastsTable[]> =>
  db.selectFrom('broadcasts').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(100).execute();

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

/** The approval that lets this text go out, or why there is none. */
async function approvalOf(
  trx: Kysely<Database>,
  b: BroadcastsTable,
  hash: string,
): Promise<{ by: string } | { problem: string }> {
  if (!b.approved_by) return { problem: 'nobody has approved it' };
  if (b.approved_hash !== hash) return { problem: `the text is not the one ${b.approved_by} approved` };
  const same = (a: string | null) => a !== null && operatorKey(a) === operatorKey(b.approved_by ?? '');
  if (same(b.created_by) || same(b.updated_by) || editorsOf(b).some(same))
    return { problem: `${b.approved_by} wrote or edited it, so it needs another approval` };
  const approver = await trx
    .selectFrom('operators')
    .select('role')
    .where('email_key', '=', operatorKey(b.approved_by))
    .executeTakeFirst();
  if (!approver || approver.role === 'viewer') return { problem: `${b.approved_by} may no longer approve broadcasts` };
  return { by: b.approved_by };
}

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
  return db.transaction().execute(async (trx): Promise<SendOutcome> => {
    const b = await lockRow(trx, id);
    if (!b) return { outcome: 'missing' };
    if (b.status !== 'draft') return { outcome: 'not-draft' };
    const draft = draftOf(b);
    const refusal = await policy.refusalOf(draft);
    if (refusal) return { outcome: 'refused', refusal };
    const hash = textHash(draft);
    const approval = await approvalOf(trx, b, hash);
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

/** A row the suppression list cancelled (suppression.ts writes `suppressed (<reason>)`). */
const isSuppressed = (lastError: string | null) => lastError?.startsWith('suppressed') === true;

/**
 * Where every recipient stands: queued + sent + failed + skipped + cancelled + suppressed =
 * recipients; and what came back: bounces (hard, soft) and complaints, each row counted once.
 */
export async function progressOf(
  db: Kysely<Database>,
  b: BroadcastsTable,
  ratePerSec: number,
): Promise<{ state: BroadcastState; progress: BroadcastProgress }> {
  const rows = await db
    .selectFrom('outbox')
    .select((eb) => ['status', 'last_error', eb.fn.countAll<number | string>().as('n')])
    .where('broadcast_id', '=', b.id)
    .groupBy(['status', 'last_error'])
    .execute();
  const p = noProgress(b.recipients ?? 0);
  for (const r of rows) {
    const n = Number(r.n);
    if (r.status === 'pending') p.queued += n;
    else if (r.status === 'sent') p.sent += n;
    else if (r.status === 'failed') {
      p.failed += n;
      p.failures.push({ reason: r.last_error ?? 'unknown', count: n });
    } else if (r.status === 'cancelled') {
      if (r.last_error === CANCELLED_BY_OPERATOR) p.cancelled += n;
      else if (isSuppressed(r.last_error)) p.suppressed += n;
      else p.skipped += n;
    }
  }
  p.failures = p.failures.sort((a, b) => b.count - a.count).slice(0, 10);
  if (b.status !== 'draft') {
    const heard = await db
      .selectFrom('bounce_events')
      .innerJoin('outbox', 'outbox.id', 'bounce_events.outbox_id')
      .select((eb) => [
        'bounce_events.kind',
        'outbox.status',
        eb.fn.count<number | string>('outbox.id').distinct().as('n'),
      ])
      .where('outbox.broadcast_id', '=', b.id)
      .groupBy(['bounce_events.kind', 'outbox.status'])
      .execute();
    let hardOfSent = 0;
    for (const h of heard) {
      const n = Number(h.n);
      if (h.kind === 'hard') p.bounced.hard += n;
      else if (h.kind === 'soft') p.bounced.soft += n;
      else if (h.kind === 'policy') p.bounced.policy += n;
      else p.complained += n;
      if (h.kind === 'hard' && h.status === 'sent') hardOfSent += n;
    }
    p.delivered = p.sent - hardOfSent;
  }
  const state: BroadcastState = b.status === 'sending' && p.queued === 0 ? 'done' : b.status;
  if (state === 'sending') p.etaSeconds = Math.ceil(p.queued / ratePerSec);
  return { state, progress: p };
}

export function toBroadcast(
  b: BroadcastsTable,
  state: BroadcastState,
  progress: BroadcastProgress,
  refusal: string | null,
  approvals: BroadcastApprovals,
): Broadcast {
  const draft = draftOf(b);
  const hash = textHash(draft);
  const approval =
    b.approved_by !== null && b.approved_at !== null && b.approved_hash === hash
      ? { by: b.approved_by, at: b.approved_at }
      : null;
  const lapsed =
    !approval && b.lapsed_approved_by && b.lapsed_approved_at && b.lapsed_by && b.lapsed_at && b.lapsed_reason
      ? {
          approvedBy: b.lapsed_approved_by,
          approvedAt: b.lapsed_approved_at,
          by: b.lapsed_by,
          at: b.lapsed_at,
          reason: b.lapsed_reason,
        }
      : null;
  return {
    id: b.id,
    subject: b.subject,
    body: b.body,
    translations: draft.translations,
    englishFallback: draft.englishFallback,
    state,
    createdBy: b.created_by,
    createdAt: b.created_at,
    updatedBy: b.updated_by ?? b.created_by,
    updatedAt: b.updated_at,
    editors: editorsOf(b),
    sentBy: b.sent_by,
    sentAt: b.sent_at,
    refusal,
    textHash: hash,
    approvalsRequired: approvals,
    approval,
    lapsedApproval: lapsed,
    progress,
    automaticPause:
      b.paused_by === PAUSED_AUTOMATICALLY && b.paused_reason && b.paused_at
        ? { reason: b.paused_reason, at: b.paused_at, overriddenBy: b.pause_overridden_by }
        : null,
  };
}
