import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { loadAppSecrets } from '../store/app-secret.ts';
import { loadLinkKeys } from '../store/link-keys.ts';
import type { Store } from '../store/database.ts';
import { GroupCommitter } from '../store/group-commit.ts';
import type { SecretBox } from '../store/secret-box.ts';
import { signKeyed, verifyKeyed } from '../lib/keyed-signature.ts';

// The app's core services as named plugins: the clock, the store (with its group committer) and
// the keys. Features declare the ones they use (fastify-plugin `decorators`/`dependencies`), and
// Fastify refuses to start when one is missing, so wiring mistakes fail at boot, not at request.

export interface Keys {
  /** For @fastify/cookie: the first signs, every one verifies (so old cookies can be replaced). */
  cookieSecrets: string[];
  /**
   * An HMAC of `value` for one purpose (e.g. "unsubscribe"), URL-safe, for links in emails. Made
   * with the link-key ring kept in the database, never with APP_SECRET: a link must outlive any
   * rotation of the cookie keys (docs/decisions/0011-links-keys-and-fields.md).
   */
  sign(purpose: string, value: string): string;
  verify(purpose: string, value: string, signature: string): boolean;
  /** Seals and opens the secrets kept in the database, under the data key (never stored there). */
  secrets: SecretBox;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** "Now", injected so tests can fix it. */
    clock: () => Date;
    store: Store;
    /** Durable writes from requests go through here (one commit per burst; see group-commit.ts). */
    committer: GroupCommitter;
    keys: Keys;
  }
}

export const clockPlugin = fp(
  async (app: FastifyInstance, opts: { clock: () => Date }) => {
    app.decorate('clock', opts.clock);
  },
  { name: 'dh-clock', fastify: '5.x' },
);

/** The store is opened and migrated by the caller, who also closes it after the app. */
export const storePlugin = fp(
  async (app: FastifyInstance, opts: { store: Store }) => {
    const committer = new GroupCommitter(opts.store.db);
    app.decorate('store', opts.store);
    app.decorate('committer', committer);
    // Whatever requests queued is committed before the caller closes the store.
    app.addHook('onClose', async () => {
      await committer.idle();
    });
  },
  { name: 'dh-store', fastify: '5.x' },
);

export const keysPlugin = fp(
  async (app: FastifyInstance, opts: { appSecret: readonly string[] | undefined; secrets: SecretBox }) => {
    // Link keys first: on the first start after migration 0003 they take over the secrets that
    // signed earlier links, before a generated cookie key could be mistaken for one.
    const linkKeys = await loadLinkKeys(app.store.db, opts.secrets, opts.appSecret);
    const cookieSecrets = await loadAppSecrets(app.store.db, opts.appSecret);
    const [signing] = linkKeys as [string, ...string[]];
    app.decorate('keys', {
      cookieSecrets,
      sign: (purpose, value) => signKeyed(signing, purpose, value),
      verify: (purpose, value, signature) => verifyKeyed(linkKeys, purpose, value, signature),
      secrets: opts.secrets,
    } satisfies Keys);
  },
  { name: 'dh-keys', fastify: '5.x', dependencies: ['dh-store'], decorators: { fastify: ['store'] } },
);
