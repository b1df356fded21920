import type { Kysely } from 'kysely';
import type { Composer } from '../../mail/outbox.ts';
import type { Keys } from '../../plugins/core.ts';
import { confirmedAddress, unsubscribeUrl } from '../../signups/queries.ts';
import type { Database } from '../../store/schema.ts';
import { broadcastEmail, renderBody, type RenderedBody } from './broadcast-render.ts';

/**
 * Builds one recipient's copy at send time. A subscriber who unsubscribed (or was erased) since
 * the send began is skipped ('cancel': counted as skipped); a cancelled broadcast sends nothing;
 * a paused one's rows are held ('hold': the worker lets go of them until the resume). The
 * broadcast's state is read for every row, just before its send: rows leased ahead in a batch
 * are stopped by a pause as promptly as one at a time.
 */
export function broadcastComposer(opts: {
  db: Kysely<Database>;
  keys: Keys;
  publicUrl: string;
  siteName: string;
}): Composer {
  // The text cannot change once the send has begun (only a draft is saved): read and render it
  // once per broadcast; its state is read for every row.
  const texts = new Map<string, { subject: string; body: RenderedBody }>();
  return async (row) => {
    if (!row.broadcast_id) return 'cancel';
    // Both reads at once: on PostgreSQL one round trip's wait per email instead of two.
    const [b, to] = await Promise.all([
      opts.db.selectFrom('broadcasts').select('status').where('id', '=', row.broadcast_id).executeTakeFirst(),
      confirmedAddress(opts.db, row.subscriber_id),
    ]);
    if (!b || b.status === 'cancelled' || b.status === 'draft') return 'cancel';
    if (b.status === 'paused') return 'hold';
    if (!to) return 'cancel';
    let text = texts.get(row.broadcast_id);
    if (!text) {
      const stored = await opts.db
        .selectFrom('broadcasts')
        .select(['subject', 'body'])
        .where('id', '=', row.broadcast_id)
        .executeTakeFirstOrThrow();
      text = { subject: stored.subject, body: renderBody(stored.body) };
      if (texts.size > 20) texts.clear();
      texts.set(row.broadcast_id, text);
    }
    return broadcastEmail({
      siteName: opts.siteName,
      subject: text.subject,
      body: text.body,
      to,
      unsubscribeUrl: unsubscribeUrl(opts.publicUrl, opts.keys, row.subscriber_id),
    });
  };
}
