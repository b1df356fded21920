import type { Kysely } from 'kysely';
import { defaultLocale, isLocale } from '../../../content/messages/locales.ts';
import type { SiteContent } from '../../shared/content-schema.ts';
import { localePath } from '../../shared/locale-paths.ts';
import { pagePaths } from '../../shared/paths.ts';
import type { Composer } from '../mail/outbox.ts';
import type { Keys } from '../plugins/core.ts';
import type { BatchKind, GroupCommitter } from '../store/group-commit.ts';
import type { Database } from '../store/schema.ts';
import { confirmationEmail } from './confirmation-email.ts';
import { CONFIRM_LINK_VALID_MS } from './signup-store.ts';
import { newLinkToken } from './tokens.ts';
import { unsubscribeUrl } from './unsubscribe-link.ts';

interface TokenWrite {
  outboxId: string;
  hash: string;
  expiresAt: string;
}

const storeToken = (db: Kysely<Database>, w: TokenWrite) =>
  db
    .updateTable('outbox')
    .set({ token_hash: w.hash, token_expires_at: w.expiresAt })
    .where('id', '=', w.outboxId)
    .execute();

/**
 * Token writes for the group committer. One alone is one UPDATE, atomic by itself, so it needs no
 * BEGIN and COMMIT: on PostgreSQL, where the mail has a committer of its own and a worker sending
 * one email at a time writes one token per batch, that is one round trip an email instead of
 * three (decision 0053).
 */
const tokenWrites: BatchKind<TokenWrite, void> = {
  async run(trx, writes) {
    for (const w of writes) await storeToken(trx, w);
    return writes.map(() => undefined);
  },
  async runAlone(db, writes) {
    const [only] = writes;
    if (only && writes.length === 1) await storeToken(db, only);
    else await db.transaction().execute((trx) => tokenWrites.run(trx, writes));
    return writes.map(() => undefined);
  },
};

/**
 * Builds a confirmation email at send time. The link's token is made here and only its hash is
 * stored, on the outbox row, so the raw token exists only inside the email itself.
 */
export function confirmationComposer(opts: {
  db: Kysely<Database>;
  /**
   * Where the token's hash is written: the server's group committer, so it shares a commit (one
   * fsync) with the sign-ups and outbox writes of the moment. Written on `db` on its own, each
   * email's token was a commit of its own, an fsync on the event loop per email: while the worker
   * drained a queue after a burst, that held every sign-up waiting (docs/decisions/0047, second
   * session). On PostgreSQL the server passes the mail's own committer, beside the sign-ups'
   * (decision 0053). Without it (tests, scripts), `db`.
   */
  committer?: Pick<GroupCommitter, 'runIn'>;
  content: SiteContent;
  publicUrl: string;
  keys: Keys;
}): Composer {
  return async (row, now) => {
    const sub = await opts.db
      .selectFrom('subscribers')
      .select(['email', 'status', 'locale'])
      .where('id', '=', row.subscriber_id)
      .executeTakeFirst();
    // Confirmed or unsubscribed since it was queued (or erased): nothing to send.
    if (!sub || sub.status !== 'pending') return 'cancel';
    const { token, hash } = newLinkToken();
    // Stored (durably: the committer answers after the commit) before the email can leave.
    const write = { outboxId: row.id, hash, expiresAt: new Date(now.getTime() + CONFIRM_LINK_VALID_MS).toISOString() };
    await (opts.committer ? opts.committer.runIn(tokenWrites, write) : storeToken(opts.db, write));
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
