import type { Kysely } from 'kysely';
import {
  type Broadcast,
  type BroadcastApprovals,
  type BroadcastProgress,
  type BroadcastState,
  noProgress,
} from '../../../shared/admin/broadcast-schema.ts';
import type { BroadcastsTable, Database } from '../../store/schema.ts';
import { PAUSED_AUTOMATICALLY } from './broadcast-brake.ts';
import { CANCELLED_BY_OPERATOR } from './broadcast-sending.ts';
import { draftOf, editorsOf } from './broadcast-store.ts';
import { textHash } from './broadcast-text.ts';

// What the console shows of a broadcast: where each recipient's row stands, what came back, and
// the row in the words of the shared schema. Read only, so it takes no lock.

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
