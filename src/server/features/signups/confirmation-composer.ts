import { defaultLocale, isLocale } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import type { Composer } from '../mail/index.ts';
import { confirmationEmail } from './confirmation-email.ts';
import { issueLinkToken, linkTokens, type LinkComposerOptions } from './link-email.ts';
import { CONFIRM_LINK_VALID_MS } from './signup-store.ts';
import { unsubscribeUrl } from './unsubscribe-link.ts';

/** A confirmation email's token digest is kept on its outbox row. */
const confirmationTokens = linkTokens((db, w) =>
  db
    .updateTable('outbox')
    .set({ token_hash: w.hash, token_expires_at: w.expiresAt })
    .where('id', '=', w.outboxId)
    .execute(),
);

/**
 * Builds a confirmation email at send time. The link's token is made here and only its hash is
 * stored, on the outbox row, so the raw token exists only inside the email itself.
 */
export function confirmationComposer(opts: LinkComposerOptions): Composer {
  return async (row, now) => {
    const sub = await opts.db
      .selectFrom('subscribers')
      .select(['email', 'status', 'locale'])
      .where('id', '=', row.subscriber_id)
      .executeTakeFirst();
    // Confirmed or unsubscribed since it was queued (or erased): nothing to send.
    if (!sub || sub.status !== 'pending') return 'cancel';
    const token = await issueLinkToken(
      opts,
      confirmationTokens,
      row.id,
      new Date(now.getTime() + CONFIRM_LINK_VALID_MS),
    );
    // The language they signed up in; a locale this build no longer has falls back to the default.
    const locale = isLocale(sub.locale) ? sub.locale : defaultLocale;
    return confirmationEmail({
      content: opts.content,
      locale,
      to: sub.email,
      // The links open the pages in that language too.
      confirmUrl: `${opts.publicUrl}${localePath(locale, pagePaths.confirm)}?token=${token}`,
      unsubscribeUrl: unsubscribeUrl(opts.publicUrl, opts.keys, row.subscriber_id, locale),
    });
  };
}
