import type { Kysely, Transaction } from 'kysely';
import { newOutboxRow } from '../mail/index.ts';
import type { Database } from '../../store/schema.ts';
import { hashToken, linkTokens } from '../signups/index.ts';

// A wallet's link to an email counts only once the email's owner pressed the button of the email
// sent for that one link, which names the wallet (migration 0024). Until then it is a request: one
// per wallet, replaced by the wallet's next, gone when it is confirmed, when it expires, when the
// wallet leaves the list and when the person is erased. The email is an outbox kind of its own;
// its token is made when the email is, and only its digest is stored, on the request.

type Db = Kysely<Database> | Transaction<Database>;

/** The outbox kind of the email asking to confirm a wallet's link (its composer: wallet-link-composer.ts). */
export const WALLET_LINK_KIND = 'wallet-link';

/** How long the link in that email works, from when it is sent: as a sign-up's confirmation link. */
export const WALLET_LINK_VALID_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * At most one such email per address in this window, however many wallets ask (as a sign-up's
 * confirmation email): a stranger's wallets cannot fill someone's inbox.
 */
const LINK_MAIL_COOLDOWN_MS = 15 * 60 * 1000;

export type AskOutcome = 'queued' | 'already-linked' | 'cooling-down' | 'gone';

/**
 * Asks `subscriberId`'s owner to confirm the link of `address`, in the caller's transaction: a
 * request (replacing the wallet's earlier one) and its email, unless the wallet is already linked
 * to them or an email of this kind went to them within the cool-down. The cool-down is claimed by
 * one conditional upsert, so two racing asks (on any instance) queue one email.
 */
export async function askWalletLink(
  trx: Transaction<Database>,
  ask: { address: string; subscriberId: string; now: Date },
): Promise<AskOutcome> {
  const now = ask.now.toISOString();
  const entry = await trx
    .selectFrom('allowlist_entries')
    .select('subscriber_id')
    .where('address', '=', ask.address)
    .executeTakeFirst();
  // Left the list since its token was spent.
  if (!entry) return 'gone';
  if (entry.subscriber_id === ask.subscriberId) return 'already-linked';
  const cutoff = new Date(ask.now.getTime() - LINK_MAIL_COOLDOWN_MS).toISOString();
  const claimed = await trx
    .insertInto('allowlist_link_mail')
    .values({ subscriber_id: ask.subscriberId, mailed_at: now })
    .onConflict((oc) =>
      oc.column('subscriber_id').doUpdateSet({ mailed_at: now }).where('allowlist_link_mail.mailed_at', '<=', cutoff),
    )
    .returning('subscriber_id')
    .executeTakeFirst();
  if (!claimed) return 'cooling-down';
  const mail = newOutboxRow(WALLET_LINK_KIND, ask.subscriberId, ask.now);
  await trx.insertInto('outbox').values(mail).execute();
  const request = {
    subscriber_id: ask.subscriberId,
    outbox_id: mail.id,
    asked_at: now,
    // Until the email is made, which sets it again from then.
    expires_at: new Date(ask.now.getTime() + WALLET_LINK_VALID_MS).toISOString(),
    token_hash: null,
  };
  await trx
    .insertInto('allowlist_link_requests')
    .values({ address: ask.address, ...request })
    .onConflict((oc) => oc.column('address').doUpdateSet(request))
    .execute();
  // Expired ones go as new ones come.
  await trx.deleteFrom('allowlist_link_requests').where('expires_at', '<=', now).execute();
  return 'queued';
}

/** What the email for a request needs, or undefined when the request is gone or was replaced. */
export async function requestForMail(
  db: Db,
  outboxId: string,
): Promise<{ address: string; email: string; status: string; locale: string } | undefined> {
  return db
    .selectFrom('allowlist_link_requests')
    .innerJoin('subscribers', 'subscribers.id', 'allowlist_link_requests.subscriber_id')
    .select(['allowlist_link_requests.address', 'subscribers.email', 'subscribers.status', 'subscribers.locale'])
    .where('allowlist_link_requests.outbox_id', '=', outboxId)
    .executeTakeFirst();
}

/**
 * Where the digest of the token an email for a request carries is stored, with its expiry from
 * then: on the request. Written through the mail's group committer as the confirmation email's are
 * (signups/confirmation-composer.ts), in the commit of the moment.
 */
export const walletLinkTokens = linkTokens((db, w) =>
  db
    .updateTable('allowlist_link_requests')
    .set({ token_hash: w.hash, expires_at: w.expiresAt })
    .where('outbox_id', '=', w.outboxId)
    .execute(),
);

const wellFormedToken = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

export type WalletLinkState = { state: 'pending'; address: string } | { state: 'expired' } | { state: 'invalid' };

/**
 * What a wallet-link token would do if pressed, without doing it: opening the link (GET, HEAD, a
 * mail scanner) changes nothing and spends nothing.
 */
export async function inspectWalletLink(db: Db, token: string, now: Date): Promise<WalletLinkState> {
  if (!wellFormedToken(token)) return { state: 'invalid' };
  const row = await db
    .selectFrom('allowlist_link_requests')
    .select(['address', 'expires_at'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return { state: 'invalid' };
  if (row.expires_at <= now.toISOString()) return { state: 'expired' };
  return { state: 'pending', address: row.address };
}

export type WalletLinkResult = { outcome: 'linked'; address: string } | { outcome: 'expired' } | { outcome: 'invalid' };

/** A second link to one person, racing this one on PostgreSQL, took the unique index first. */
const lostTheRace = (error: unknown): boolean => {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === '23505' || (typeof e?.message === 'string' && e.message.includes('UNIQUE constraint failed'));
};

/**
 * Presses a wallet-link token: single use. The wallet is linked to the person, and any other
 * wallet linked to them is unlinked in the same transaction (one email, one wallet; the unique
 * index holds it against a race, which is tried once more).
 */
export async function confirmWalletLink(db: Kysely<Database>, token: string, now: Date): Promise<WalletLinkResult> {
  if (!wellFormedToken(token)) return { outcome: 'invalid' };
  const attempt = () =>
    db.transaction().execute(async (trx): Promise<WalletLinkResult> => {
      const row = await trx
        .deleteFrom('allowlist_link_requests')
        .where('token_hash', '=', hashToken(token))
        .returning(['address', 'subscriber_id', 'expires_at'])
        .executeTakeFirst();
      if (!row) return { outcome: 'invalid' };
      if (row.expires_at <= now.toISOString()) return { outcome: 'expired' };
      // Nulled first, in a statement of its own: PostgreSQL checks a unique index row by row.
      await trx
        .updateTable('allowlist_entries')
        .set({ subscriber_id: null, email_linked_at: null })
        .where('subscriber_id', '=', row.subscriber_id)
        .where('address', '!=', row.address)
        .execute();
      await trx
        .updateTable('allowlist_entries')
        .set({ subscriber_id: row.subscriber_id, email_linked_at: now.toISOString() })
        .where('address', '=', row.address)
        .execute();
      return { outcome: 'linked', address: row.address };
    });
  try {
    return await attempt();
  } catch (error) {
    if (!lostTheRace(error)) throw error;
    return attempt();
  }
}
