import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { SiteContent } from '../../../shared/content-schema.ts';
import type { Keys } from '../../plugins/core.ts';
import type { BatchKind, GroupCommitter } from '../../store/group-commit.ts';
import type { Database } from '../../store/schema.ts';
import { newLinkToken } from './tokens.ts';

// What every email carrying a single-use link shares (the confirmation email, and the allowlist's
// wallet-link email): built at send time, its token made there and only the token's digest stored,
// durably, before the email can leave, so the raw token exists only inside the email itself.

/** What a composer of such an email takes. */
export interface LinkComposerOptions {
  db: Kysely<Database>;
  /**
   * Where the token's hash is written: the server's group committer, so it shares a commit (one
   * fsync) with the sign-ups and outbox writes of the moment. Written on `db` on its own, each
   * email's token was a commit of its own, an fsync on the event loop per email: while the worker
   * drained a queue after a burst, that held every sign-up waiting (docs/decisions/0047, second
   * session). Without it (tests, scripts), `db`.
   */
  committer?: Pick<GroupCommitter, 'runIn'>;
  content: SiteContent;
  publicUrl: string;
  keys: Keys;
}

/** A feature's composer options from the app: the app's committer, which the worker's claims and marks share. */
export const linkComposerOptions = (
  app: FastifyInstance,
  opts: { content: SiteContent; publicUrl: string },
): LinkComposerOptions => ({
  db: app.store.db,
  committer: app.committer,
  content: opts.content,
  publicUrl: opts.publicUrl,
  keys: app.keys,
});

/** The digest of the token one email carries, and until when it works. */
interface TokenWrite {
  outboxId: string;
  hash: string;
  expiresAt: string;
}

/** Where a kind of email keeps its tokens' digests: one UPDATE, found by the email's outbox id. */
export interface LinkTokens {
  store(db: Kysely<Database> | Transaction<Database>, w: TokenWrite): Promise<unknown>;
  /** The same writes for the group committer. */
  batch: BatchKind<TokenWrite, void>;
}

/**
 * Token writes for the group committer. One alone is one UPDATE, atomic by itself, so it needs no
 * BEGIN and COMMIT: on PostgreSQL, a worker sending one email at a time between bursts writes one
 * token per batch, one round trip an email instead of three (decision 0053).
 */
export function linkTokens(store: LinkTokens['store']): LinkTokens {
  const batch: BatchKind<TokenWrite, void> = {
    async run(trx, writes) {
      for (const w of writes) await store(trx, w);
      return writes.map(() => undefined);
    },
    async runAlone(db, writes) {
      const [only] = writes;
      if (only && writes.length === 1) await store(db, only);
      else await db.transaction().execute((trx) => batch.run(trx, writes));
      return writes.map(() => undefined);
    },
  };
  return { store, batch };
}

/**
 * Makes the token of the link in the email of outbox row `outboxId`, working until `expiresAt`,
 * and stores its digest (durably: the committer answers after the commit) before the email can
 * leave. The token itself is for the email only.
 */
export async function issueLinkToken(
  opts: Pick<LinkComposerOptions, 'db' | 'committer'>,
  tokens: LinkTokens,
  outboxId: string,
  expiresAt: Date,
): Promise<string> {
  const { token, hash } = newLinkToken();
  const write = { outboxId, hash, expiresAt: expiresAt.toISOString() };
  await (opts.committer ? opts.committer.runIn(tokens.batch, write) : tokens.store(opts.db, write));
  return token;
}
