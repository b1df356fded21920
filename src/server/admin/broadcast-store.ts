import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Broadcast, BroadcastDraft, BroadcastProgress, BroadcastState } from '../../shared/admin/broadcast-schema.ts';
import { newOutboxRow } from '../mail/outbox.ts';
import { confirmedSubscriberIds } from '../signups/queries.ts';
import type { BroadcastsTable, Database } from '../store/schema.ts';

// A broadcast's life, in the database (docs/decisions/0015-launch-broadcast.md). Every change of
// state is one conditional UPDATE (`… WHERE status = <the state it leaves>`), so two clicks or two
// operators racing each other change it once: the loser's UPDATE matches no row.

export const BROADCAST_KIND = 'broadcast';
/** What an operator's cancel writes on the rows it stops (a composer's cancel writes nothing). */
export const CANCELLED_BY_OPERATOR = 'cancelled by an operator';
const CHUNK = 500;

export async function createDraft(db: Kysely<Database>, draft: BroadcastDraft, by: string, now: Date): Promise<string> {
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
      sent_by: null,
      sent_at: null,
      recipients: null,
    })
    .execute();
  return id;
}

/** Saves a draft; false when it is no longer a draft (or does not exist). */
export async function saveDraft(db: Kysely<Database>, id: string, draft: BroadcastDraft, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('broadcasts')
    .set({ subject: draft.subject, body: draft.body, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'draft')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const findBroadcast = (db: Kysely<Database>, id: string): Promise<BroadcastsTable | undefined> =>
  db.selectFrom('broadcasts').selectAll().where('id', '=', id).executeTakeFirst();

export const listBroadcasts = (db: Kysely<Database>): Promise<BroadcastsTable[]> =>
  db.selectFrom('broadcasts').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(100).execute();

/**
 * Draft → sending, and one outbox row per confirmed subscriber, in one transaction: the
 * recipients are the confirmed list at that instant, and either all of them are queued or none.
 * Null when the broadcast was not a draft (sent already: a double click, another operator).
 */
export async function startSend(db: Kysely<Database>, id: string, by: string, now: Date): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('broadcasts')
      .set({ status: 'sending', sent_by: by, sent_at: now.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return null;
    const ids = await confirmedSubscriberIds(trx);
    for (let i = 0; i < ids.length; i += CHUNK) {
      await trx
        .insertInto('outbox')
        .values(ids.slice(i, i + CHUNK).map((sid) => newOutboxRow(BROADCAST_KIND, sid, now, id)))
        .execute();
    }
    await trx.updateTable('broadcasts').set({ recipients: ids.length }).where('id', '=', id).execute();
    return ids.length;
  });
}

// A paused broadcast's rows wait here: no worker claims them until resume makes them due again.
const HELD_UNTIL = '9999-12-31T00:00:00.000Z';

/**
 * Sending → paused: rows not yet taken by a worker are held back (those in the middle of their
 * SMTP exchange finish; one that must be retried meets the composer, which holds it too).
 */
export async function pause(db: Kysely<Database>, id: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await move(trx, id, ['sending'], 'paused', now))) return false;
    await trx
      .updateTable('outbox')
      .set({ next_attempt_at: HELD_UNTIL })
      .where('broadcast_id', '=', id)
      .where('status', '=', 'pending')
      .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', now.toISOString())]))
      .execute();
    return true;
  });
}

/** Paused → sending; rows held back meanwhile are due at once. */
export async function resume(db: Kysely<Database>, id: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await move(trx, id, ['paused'], 'sending', now))) return false;
    await trx
      .updateTable('outbox')
      .set({ next_attempt_at: now.toISOString() })
      .where('broadcast_id', '=', id)
      .where('status', '=', 'pending')
      .execute();
    return true;
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

async function move(db: Kysely<Database>, id: string, from: BroadcastsTable['status'][], to: BroadcastsTable['status'], now: Date): Promise<boolean> {
  const r = await db
    .updateTable('broadcasts')
    .set({ status: to, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Where every recipient stands: queued + sent + failed + skipped + cancelled = recipients. */
export async function progressOf(db: Kysely<Database>, b: BroadcastsTable, ratePerSec: number): Promise<{ state: BroadcastState; progress: BroadcastProgress }> {
  const rows = await db
    .selectFrom('outbox')
    .select((eb) => ['status', 'last_error', eb.fn.countAll<number | string>().as('n')])
    .where('broadcast_id', '=', b.id)
    .groupBy(['status', 'last_error'])
    .execute();
  const p: BroadcastProgress = { recipients: b.recipients ?? 0, queued: 0, sent: 0, failed: 0, skipped: 0, cancelled: 0, etaSeconds: null, failures: [] };
  for (const r of rows) {
    const n = Number(r.n);
    if (r.status === 'pending') p.queued += n;
    else if (r.status === 'sent') p.sent += n;
    else if (r.status === 'failed') {
      p.failed += n;
      p.failures.push({ reason: r.last_error ?? 'unknown', count: n });
    } else if (r.status === 'cancelled') {
      if (r.last_error === CANCELLED_BY_OPERATOR) p.cancelled += n;
      else p.skipped += n;
    }
  }
  p.failures = p.failures.sort((a, b) => b.count - a.count).slice(0, 10);
  const state: BroadcastState = b.status === 'sending' && p.queued === 0 ? 'done' : b.status;
  if (state === 'sending') p.etaSeconds = Math.ceil(p.queued / ratePerSec);
  return { state, progress: p };
}

export const toBroadcast = (b: BroadcastsTable, state: BroadcastState, progress: BroadcastProgress, refusal: string | null): Broadcast => ({
  id: b.id,
  subject: b.subject,
  body: b.body,
  state,
  createdBy: b.created_by,
  createdAt: b.created_at,
  sentBy: b.sent_by,
  sentAt: b.sent_at,
  refusal,
  progress,
});
