// The mail feature's public surface: what another feature needs to send email through the
// outbox. A feature that owns a kind of email registers its composer (app.outbox.registerKind)
// and queues rows with newOutboxRow inside its own transaction, so "stored" and "will be sent"
// are one commit.
import { timeOrderedId } from '../../lib/time-ordered-id.ts';
import type { MailMessage } from './mailer.ts';
import type { OutboxTable } from '../../store/schema.ts';

export type { MailMessage } from './mailer.ts';
// The suppression list: a feature that queues mail checks it first (a sign-up of a suppressed
// address queues nothing).
export { Suppressions } from './suppression.ts';

export type OutboxRow = Pick<
  OutboxTable,
  'id' | 'kind' | 'subscriber_id' | 'created_at' | 'next_attempt_at' | 'broadcast_id'
> & { attempts: number };

/**
 * Turns a claimed row into a message; or 'cancel' when it should no longer be sent; or 'hold' when
 * it must wait for something outside the outbox (a paused broadcast): the worker lets go of it,
 * and of the rows of the same broadcast it leased ahead, without counting an attempt, and looks
 * again after RETRY_BASE_MS (a resume makes them due at once).
 */
export type Composer = (row: OutboxRow, now: Date) => Promise<MailMessage | 'cancel' | 'hold'>;

export interface Outbox {
  /** The composer for one kind of email (e.g. 'confirmation'); each kind is registered once. */
  registerKind(kind: string, composer: Composer): void;
  /**
   * Something was queued: send now rather than at the next poll. `'broadcast'` when broadcast rows
   * were (a broadcast started or resumed); otherwise a visitor's own email (a confirmation), which
   * also tells the worker visitors are arriving (decision 0051) and does not send it looking for
   * broadcast rows.
   */
  nudge(what?: 'email' | 'broadcast'): void;
  /**
   * Calls `listener` with the broadcast's id each time a row of it is marked sent (after the
   * mark's commit, outside it): the admin feature's brake re-checks the rates as rows are sent.
   * A listener must not throw and should return at once (it runs on the worker's path).
   */
  onBroadcastRowSent(listener: (broadcastId: string) => void): void;
  /**
   * Sends one email now, not through the outbox (a test send: the operator waits for it, and a
   * failure is theirs to see), with the envelope and headers a queued email of `kind` gets
   * (withBounceHeaders): a VERP envelope sender under a fresh signed id that names no row — so a
   * bounce comes back to the bounce mailbox, where it changes nothing, never to From's — the
   * Feedback-ID, and for a broadcast its List-Id. Rejects as the mailer does.
   */
  sendNow(message: MailMessage, as: { kind: string; broadcastId: string | null }): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    outbox: Outbox;
  }
}

/**
 * A row to insert in the caller's transaction: due now, unclaimed. Rows of a broadcast carry its
 * id: the worker paces them (MAIL_RATE_PER_SEC) and sends every other row first.
 */
export const newOutboxRow = (kind: string, subscriberId: string, now: Date, broadcastId: string | null = null) => ({
  // Time-ordered, as subscribers' ids: a burst of rows appends to the key's index (time-ordered-id.ts).
  id: timeOrderedId(),
  kind,
  subscriber_id: subscriberId,
  status: 'pending' as const,
  next_attempt_at: now.toISOString(),
  token_hash: null,
  token_expires_at: null,
  locked_by: null,
  locked_until: null,
  last_error: null,
  created_at: now.toISOString(),
  sent_at: null,
  broadcast_id: broadcastId,
});

/** Headers every list email carries: RFC 2369 List-Unsubscribe and RFC 8058 one-click. */
export const listUnsubscribeHeaders = (unsubscribeUrl: string): Record<string, string> => ({
  'List-Unsubscribe': `<${unsubscribeUrl}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});
