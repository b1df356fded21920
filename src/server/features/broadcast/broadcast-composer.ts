import type { Kysely } from 'kysely';
import { defaultLocale, isLocale, type Locale } from '../../../shared/locales.ts';
import { versionFor } from '../../../shared/admin/broadcast-schema.ts';
import type { Composer, MailMessage } from '../mail/index.ts';
import type { Keys } from '../../plugins/core.ts';
import { invitePageUrl } from '../referrals/index.ts';
import { confirmedRecipient, unsubscribeUrl } from '../signups/index.ts';
import type { Database } from '../../store/schema.ts';
import { broadcastEmails, renderBody } from './broadcast-render.ts';
import { draftOf } from './broadcast-store.ts';

interface RenderedVersion {
  /** The locale the version is written in (English for a locale that falls back to it). */
  locale: Locale;
  /** Its email for one recipient, from the text and MIME body built once (broadcastEmails). */
  emailTo: (to: string, unsubscribeUrl: string, invitePageUrl: string) => MailMessage;
}

/**
 * Builds one recipient's copy at send time, in the version of the locale they signed up in
 * (decision 0048): their locale's own version, else English when it is the fallback. The send's
 * check (broadcast-versions.ts) refused a broadcast that leaves a locale without either, so a
 * recipient finds no version only when their stored locale is one this build does not speak:
 * they get English, the default, as every other email falls back. One outbox row per recipient
 * (decision 0046's batches and leases unchanged), so each gets exactly one version, once.
 *
 * A subscriber who unsubscribed (or was erased) since the send began is skipped ('cancel':
 * counted as skipped); a cancelled broadcast sends nothing; a paused one's rows are held ('hold':
 * the worker lets go of them until the resume). The broadcast's state is read for every row, just
 * before its send: rows leased ahead in a batch are stopped by a pause as promptly as one at a time.
 */
export function broadcastComposer(opts: {
  db: Kysely<Database>;
  keys: Keys;
  publicUrl: string;
  siteName: string;
}): Composer {
  // The versions cannot change once the send has begun (only a draft is saved): read once per
  // broadcast, each rendered once, the first time a recipient needs it; the state is read per row.
  const texts = new Map<string, { version: (locale: Locale) => RenderedVersion }>();
  return async (row) => {
    if (!row.broadcast_id) return 'cancel';
    // Both reads at once: on PostgreSQL one round trip's wait per email instead of two.
    const [b, to] = await Promise.all([
      opts.db.selectFrom('broadcasts').select('status').where('id', '=', row.broadcast_id).executeTakeFirst(),
      confirmedRecipient(opts.db, row.subscriber_id),
    ]);
    if (!b || b.status === 'cancelled' || b.status === 'draft') return 'cancel';
    if (b.status === 'paused') return 'hold';
    if (!to) return 'cancel';
    let text = texts.get(row.broadcast_id);
    if (!text) {
      const stored = await opts.db
        .selectFrom('broadcasts')
        .selectAll()
        .where('id', '=', row.broadcast_id)
        .executeTakeFirstOrThrow();
      const draft = draftOf(stored);
      const rendered = new Map<Locale, RenderedVersion>();
      text = {
        version: (locale) => {
          const chosen = versionFor(draft, locale) ?? {
            locale: 'en' as const,
            version: { subject: draft.subject, body: draft.body },
          };
          let out = rendered.get(chosen.locale);
          if (!out) {
            out = {
              locale: chosen.locale,
              emailTo: broadcastEmails({
                siteName: opts.siteName,
                subject: chosen.version.subject,
                body: renderBody(chosen.version.body),
                locale: chosen.locale,
              }),
            };
            rendered.set(chosen.locale, out);
          }
          return out;
        },
      };
      if (texts.size > 20) texts.clear();
      texts.set(row.broadcast_id, text);
    }
    const theirs = isLocale(to.locale) ? to.locale : defaultLocale;
    const version = text.version(theirs);
    // Their language's unsubscribe and invite pages, whichever version they were sent (decision 0050).
    return version.emailTo(
      to.email,
      unsubscribeUrl(opts.publicUrl, opts.keys, row.subscriber_id, theirs),
      invitePageUrl(opts.publicUrl, opts.keys, row.subscriber_id, theirs),
    );
  };
}
