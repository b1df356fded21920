import type { Kysely } from 'kysely';
import type { Composer } from '../../mail/outbox.ts';
import type { Keys } from '../../plugins/core.ts';
import { confirmedAddress, unsubscribeUrl } from '../../signups/queries.ts';
import type { Database } from '../../store/schema.ts';
import { broadcastEmail, renderBody, type RenderedBody } from './broadcast-render.ts';

/** Thrown for a row of a paused broadcast: the worker retries it later, resume makes it due. */
export class BroadcastPausedError extends Error {
  constructor() {
    super('broadcast paused; held until it is resumed');
  }
}

/**
 * Builds one recipient's copy at send time. A subscriber who unsubscribed (or was erased) since
 * the send began is skipped ('cancel': counted as skipped); a cancelled broadcast sends nothing.
 */
export function broadcastComposer(opts: {
  db: Kysely<Database>;
  keys: Keys;
  publicUrl: string;
  siteName: string;
}): Composer {
  // The body is the same for every recipient and cannot change once sent: render it once.
  const rendered = new Map<string, RenderedBody>();
  return async (row) => {
    if (!row.broadcast_id) return 'cancel';
    const b = await opts.db
      .selectFrom('broadcasts')
      .select(['subject', 'body', 'status'])
      .where('id', '=', row.broadcast_id)
      .executeTakeFirst();
    if (!b || b.status === 'cancelled' || b.status === 'draft') return 'cancel';
    if (b.status === 'paused') throw new BroadcastPausedError();
    const to = await confirmedAddress(opts.db, row.subscriber_id);
    if (!to) return 'cancel';
    let body = rendered.get(row.broadcast_id);
    if (!body) {
      body = renderBody(b.body);
      if (rendered.size > 20) rendered.clear();
      rendered.set(row.broadcast_id, body);
    }
    return broadcastEmail({
      siteName: opts.siteName,
      subject: b.subject,
      body,
      to,
      unsubscribeUrl: unsubscribeUrl(opts.publicUrl, opts.keys, row.subscriber_id),
    });
  };
}
