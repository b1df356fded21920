import type { Kysely } from 'kysely';
import { errorText } from '../../lib/log-safe.ts';
import type { Database } from '../../store/schema.ts';
import { withBounceHeaders } from './bounce-headers.ts';
import type { MailMessage } from './mailer.ts';
import type { OutboxLeases } from './outbox-leases.ts';
import type { MarkQueue } from './outbox-marks.ts';
import { GIVE_UP_AFTER_MS, retryDelayMs } from './outbox-retry.ts';
import type { OutboxWorkerOptions } from './outbox-worker-options.ts';
import type { OutboxRow } from './outbox.ts';
import { isPermanentSmtpFailure, smtpBounceKind, smtpStatus } from './smtp-answers.ts';

/** What one row's delivery needs from the worker that leased it. */
export interface Delivery {
  opts: Pick<OutboxWorkerOptions, 'db' | 'kinds' | 'mailer' | 'onError' | 'suppressions' | 'verp'>;
  clock: () => Date;
  leases: OutboxLeases;
  marks: MarkQueue;
  /** Lets go of a row its composer said to hold (a paused broadcast), with the rows leased beside it. */
  hold: (row: OutboxRow) => Promise<void>;
}

/**
 * Composes, sends and marks one row; `exchanged` is called once the SMTP server has answered (the
 * worker's slot is the SMTP exchange, not the commit after it).
 */
export async function deliver(d: Delivery, row: OutboxRow, exchanged: () => void = () => undefined): Promise<void> {
  const { opts } = d;
  let message: MailMessage | 'cancel' | undefined;
  try {
    const compose = opts.kinds.get(row.kind);
    // During a rolling deploy an older instance may claim a kind it does not know yet: the
    // row is retried with back-off, so an instance that knows it sends it.
    if (!compose) throw new Error(`no composer for outbox kind "${row.kind}" on this instance`);
    const composed = await compose(row, d.clock());
    if (composed === 'hold') {
      exchanged();
      await d.hold(row);
      return;
    }
    message = composed;
    if (message !== 'cancel' && (await opts.suppressions?.isSuppressed(opts.db, message.to))) {
      exchanged();
      await d.marks.later(row, 'suppressed');
      return;
    }
    if (message !== 'cancel') {
      await opts.mailer.send(opts.verp ? withBounceHeaders(message, row, opts.verp) : message);
    }
    exchanged();
  } catch (error) {
    exchanged();
    opts.onError?.(error, row);
    await recordFailure(d, row, error, message && message !== 'cancel' ? message.to : null);
    return;
  }
  await d.marks.later(row, message === 'cancel' ? 'cancelled' : 'sent');
}

/**
 * A failed send: the row is tried again later with back-off, or given up (the server's 5xx, or
 * GIVE_UP_AFTER_MS since it was queued), when the answer also goes on the suppression list.
 */
async function recordFailure(d: Delivery, row: OutboxRow, error: unknown, address: string | null): Promise<void> {
  const { suppressions } = d.opts;
  const now = d.clock();
  const failures = row.attempts + 1;
  // 4xx (and a dropped connection) is worth another try later; 5xx is the server's last word.
  const permanent = isPermanentSmtpFailure(error);
  const giveUp = permanent || now.getTime() - Date.parse(row.created_at) >= GIVE_UP_AFTER_MS;
  const bounce = giveUp && address && suppressions ? smtpBounceKind(error) : null;
  const mine = (db: Kysely<Database>) =>
    db.updateTable('outbox').where('id', '=', row.id).where('locked_by', '=', d.leases.workerId);
  d.leases.writes.others++;
  await d.leases.write(async (db) => {
    // The SMTP answer is a bounce heard at once: the row id is its event id, so it counts once.
    if (bounce && address) {
      await suppressions?.record(db, {
        source: 'smtp',
        eventId: row.id,
        kind: bounce,
        address,
        outboxId: row.id,
        detail: smtpStatus(error),
        now,
      });
    }
    return mine(db)
      .set({
        status: giveUp ? 'failed' : 'pending',
        attempts: failures,
        next_attempt_at: new Date(now.getTime() + retryDelayMs(failures)).toISOString(),
        last_error: errorText(error).slice(0, 500),
        locked_by: null,
        locked_until: null,
      })
      .execute();
  });
}
