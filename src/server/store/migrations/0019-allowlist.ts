import type { Kysely, Migration } from 'kysely';

// The presale allowlist (docs/decisions/0045-wallet-allowlist.md). Held: the EIP-55 address, when
// it joined, and the country of the server-side lookup; never an IP address.
export const allowlistMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('allowlist_entries')
      .addColumn('address', 'text', (c) => c.primaryKey())
      .addColumn('joined_at', 'text', (c) => c.notNull())
      .addColumn('country', 'text')
      .execute();
    await db.schema.createIndex('allowlist_entries_joined').on('allowlist_entries').column('joined_at').execute();
    // The single-use values of the Sign-In with Ethereum messages this site wrote: in the
    // database, so every instance knows a nonce another issued or used. A used one is kept (used_at)
    // until it would have expired anyway, so a replay is told apart from a stranger's nonce.
    await db.schema
      .createTable('allowlist_nonces')
      .addColumn('nonce', 'text', (c) => c.primaryKey())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('issued_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('allowlist_nonces_expiry').on('allowlist_nonces').column('expires_at').execute();
    // Frozen snapshots: the whole OpenZeppelin StandardMerkleTree (its dump) and its root, written
    // once and never updated; the sale contract is given the root, the sale page the proofs.
    await db.schema
      .createTable('allowlist_snapshots')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('root', 'text', (c) => c.notNull())
      .addColumn('entries', 'integer', (c) => c.notNull())
      .addColumn('tree', 'text', (c) => c.notNull())
      .addColumn('frozen_at', 'text', (c) => c.notNull())
      .addColumn('requested_by', 'text', (c) => c.notNull())
      // Null when the deployment needs no second operator (BROADCAST_APPROVALS=1).
      .addColumn('approved_by', 'text')
      .addColumn('registration_after', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('allowlist_snapshots_frozen').on('allowlist_snapshots').column('frozen_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('allowlist_snapshots').execute();
    await db.schema.dropTable('allowlist_nonces').execute();
    await db.schema.dropTable('allowlist_entries').execute();
  },
};
