import { PostgresAdapter, type Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { recordAudit } from '../audit/index.ts';

// A broadcast that stops itself (docs/decisions/0035-bounces-complaints-and-suppression.md, "A
// broadcast that stops itself"). Every bounce or complaint is stored by Suppressions.record, whoever
// heard it, which calls brakeBroadcasts (registered by admin-plugin.ts); when the event names an
// outbox row of a broadcast that is sending, the same transaction re-counts that broadcast and, past a threshold, pauses it: one conditional UPDATE
// (sending → paused), so two instances hearing two events at once pause it once, and audit it once.

/** Gmail and Yahoo's bulk-sender rules: keep spam complaints under 0.1 % (never reach 0.3 %). */
const COMPLAINT_RATE_LIMIT = 0.001;
/** Hard bounces above 5 %: where SES puts an account under review, and Mailgun and SendGrid warn. */
const HARD_BOUNCE_RATE_LIMIT = 0.05;
/**
 * Nor on fewer complaints than this, whatever their rate. Every recipient holds a VERP address of
 * their own, so any one subscriber can file a feedback report, and on a launch's first few hundred
 * sent one complaint is already above 0.1 % (1 of 337 is 0.3 %): one person paused the launch.
 * Rows are counted once, so one person's reports weigh one complaint; with 2, it takes two people.
 * Providers read these rates over far more mail than a launch's first hundreds (SES over a
 * "representative volume" of the account's sending, Gmail over a day's traffic, its Postmaster
 * Tools showing no rate below a daily volume in the hundreds), where 0.1 % is several complaints;
 * so two complaints in under 2,000 sent still pause well before a provider would act (at SES's
 * 0.5 % pause line, a list is expected to reach its second complaint by about 400 sent). From 2,000
 * sent on, the rate alone decides, as before.
 */
const COMPLAINT_MIN_COUNT = 2;
/**
 * Nor on fewer hard bounces than this. With the sample below (200 at least) the 5 % limit already
 * asks for 11, so this changes no verdict today; it states the rule for both kinds alike, and keeps a
 * handful of bounces from ever being a verdict if the sample is lowered. 10 is 5 % of 200.
 */
const HARD_BOUNCE_MIN_COUNT = 10;
/** No verdict on fewer than this many sent: two early bounces out of ten say nothing of the list. */
const MIN_SAMPLE = 200;
/** …nor on less than this share of the recipients (a large list's first minutes are its oldest rows). */
const MIN_SAMPLE_SHARE = 0.02;

/** What an automatic pause writes on the row as `paused_by`. */
export const PAUSED_AUTOMATICALLY = 'automatic';

// A paused broadcast's rows wait here: no worker claims them until resume makes them due again.
const HELD_UNTIL = '9999-12-31T00:00:00.000Z';

/**
 * Holds back a paused broadcast's rows not yet taken by a worker (those in the middle of their
 * SMTP exchange finish; one that must be retried meets the composer, which holds it too).
 */
export async function holdBack(trx: Kysely<Database>, id: string, now: Date): Promise<void> {
  await trx
    .updateTable('outbox')
    .set({ next_attempt_at: HELD_UNTIL })
    .where('broadcast_id', '=', id)
    .where('status', '=', 'pending')
    .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', now.toISOString())]))
    .execute();
}

export const minSampleOf = (recipients: number): number =>
  Math.max(MIN_SAMPLE, Math.ceil(recipients * MIN_SAMPLE_SHARE));

export interface BroadcastRates {
  /** Rows handed to a mail server: sent, failed, or bounced at once. */
  sent: number;
  /** Distinct rows with a hard bounce, with a complaint. */
  hard: number;
  complaints: number;
}

/** A broadcast's sent rows and its bounced and complained rows, each row counted once. */
export async function ratesOf(db: Kysely<Database>, id: string): Promise<BroadcastRates> {
  const sent = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('broadcast_id', '=', id)
    .where((w) =>
      w.or([
        w('status', 'in', ['sent', 'failed']),
        // A 5xx heard during the SMTP exchange is stored while its row is still pending.
        w.exists(
          w
            .selectFrom('bounce_events')
            .select('bounce_events.outbox_id')
            .whereRef('bounce_events.outbox_id', '=', 'outbox.id'),
        ),
      ]),
    )
    .executeTakeFirstOrThrow();
  const bounced = await db
    .selectFrom('bounce_events')
    .innerJoin('outbox', 'outbox.id', 'bounce_events.outbox_id')
    .select((eb) => ['bounce_events.kind', eb.fn.count<number | string>('outbox.id').distinct().as('n')])
    .where('outbox.broadcast_id', '=', id)
    .where('bounce_events.kind', 'in', ['hard', 'complaint'])
    .groupBy('bounce_events.kind')
    .execute();
  const of = (k: string) => Number(bounced.find((b) => b.kind === k)?.n ?? 0);
  return { sent: Number(sent.n), hard: of('hard'), complaints: of('complaint') };
}

const percent = (x: number) => `${(x * 100).toFixed(2).replace(/\.?0+$/, '')} %`;

/** Why these counts call for a pause, in words, or null. */
export function brakeReason(r: BroadcastRates, recipients: number): string | null {
  if (r.sent < minSampleOf(recipients)) return null;
  return reasonPastSample(r);
}

/**
 * The verdict on a sample already large enough: a kind calls for a pause when its count reaches
 * its minimum and its rate is above its limit. Only hard bounces and complaints are counted
 * (ratesOf): a soft bounce, or any other kind of event the mail feature learns to tell apart, is
 * no verdict on the list.
 */
export function reasonPastSample(r: BroadcastRates): string | null {
  if (r.sent === 0) return null;
  const sample = `of ${r.sent} sent`;
  if (r.complaints >= COMPLAINT_MIN_COUNT && r.complaints / r.sent > COMPLAINT_RATE_LIMIT) {
    return `Complaints reached ${percent(r.complaints / r.sent)} (${r.complaints} ${sample}), above the ${percent(COMPLAINT_RATE_LIMIT)} limit.`;
  }
  if (r.hard >= HARD_BOUNCE_MIN_COUNT && r.hard / r.sent > HARD_BOUNCE_RATE_LIMIT) {
    return `Hard bounces reached ${percent(r.hard / r.sent)} (${r.hard} ${sample}), above the ${percent(HARD_BOUNCE_RATE_LIMIT)} limit.`;
  }
  return null;
}

/**
 * Re-checks the broadcast of this outbox row after a bounce or complaint was stored in `trx`, and
 * pauses it past a threshold. Returns the reason when this call paused it.
 */
async function checkBroadcastOf(trx: Kysely<Database>, outboxId: string, now: Date): Promise<string | null> {
  const row = await trx.selectFrom('outbox').select('broadcast_id').where('id', '=', outboxId).executeTakeFirst();
  return row?.broadcast_id ? checkBroadcast(trx, row.broadcast_id, now) : null;
}

/** Re-counts a sending broadcast in `trx` and pauses it past a threshold; the reason when this call paused it. */
export async function checkBroadcast(trx: Kysely<Database>, id: string, now: Date): Promise<string | null> {
  // The broadcast's row is locked before counting (PostgreSQL; SQLite's BEGIN IMMEDIATE already
  // serialises writers), so of two instances storing events at once the second counts after the
  // first commits, and sees both events.
  const q = trx.selectFrom('broadcasts').select(['status', 'recipients', 'pause_overridden_by']).where('id', '=', id);
  const b = await (trx.getExecutor().adapter instanceof PostgresAdapter ? q.forUpdate() : q).executeTakeFirst();
  if (b?.status !== 'sending') return null;
  // An operator overrode an automatic pause: the rate that tripped it is still there, so another
  // automatic pause would undo their decision at the next bounce. They can still pause it by hand.
  if (b.pause_overridden_by !== null) return null;
  // Sent in full: late bounces no longer have anything to stop.
  const waiting = await trx
    .selectFrom('outbox')
    .select('id')
    .where('broadcast_id', '=', id)
    .where('status', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  if (!waiting) return null;
  const reason = brakeReason(await ratesOf(trx, id), b.recipients ?? 0);
  if (!reason) return null;
  const at = now.toISOString();
  const moved = await trx
    .updateTable('broadcasts')
    .set({
      status: 'paused',
      updated_at: at,
      paused_by: PAUSED_AUTOMATICALLY,
      paused_reason: reason,
      paused_at: at,
      pause_overridden_by: null,
    })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return null;
  await holdBack(trx, id, now);
  await recordAudit(
    trx,
    now,
    { email: null, via: 'system' },
    { action: 'broadcast.auto-paused', subject: id, detail: reason },
  );
  return reason;
}

/** Suppressions.onStored's hook: an event naming an outbox row re-checks that row's broadcast. */
export const brakeBroadcasts = async (
  trx: Kysely<Database>,
  e: { outboxId?: string | null; now: Date },
): Promise<void> => {
  if (e.outboxId) await checkBroadcastOf(trx, e.outboxId, e.now);
};
