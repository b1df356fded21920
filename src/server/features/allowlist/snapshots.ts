import { randomUUID } from 'node:crypto';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import type { Kysely, Transaction } from 'kysely';
import type { AllowlistSnapshotsTable, Database } from '../../store/schema.ts';

// Frozen snapshots of the allowlist: an OpenZeppelin StandardMerkleTree over one-field leaves
// `[address]` (the leaf encoding a Solidity MerkleProof.verify with
// keccak256(bytes.concat(keccak256(abi.encode(addr)))) expects), stored whole (its dump) with its
// root, written once and never updated. Registration may close with it or stay open for a next
// round; the flag lives in the settings table, read at every join.

/** StandardMerkleTree's leaf encoding for the allowlist: one address per leaf. */
export const LEAF_ENCODING = ['address'];

const REGISTRATION_KEY = 'allowlist.registration';

type Db = Kysely<Database> | Transaction<Database>;

export async function registrationOpen(db: Db): Promise<boolean> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', REGISTRATION_KEY).executeTakeFirst();
  return row?.value !== 'closed';
}

export async function setRegistration(db: Db, open: boolean): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: REGISTRATION_KEY, value: open ? 'open' : 'closed' })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: open ? 'open' : 'closed' }))
    .execute();
}

export class EmptyAllowlist extends Error {}

/**
 * Freezes the list as it is inside `trx`: every address (or, with `termsVersion`, those whose
 * entry accepted that version: the others accepted an older one or joined before any terms), the
 * tree over them, the snapshot row, and registration closed unless kept open. Throws
 * EmptyAllowlist when nobody is in it (a tree needs one leaf at least).
 */
export async function freezeSnapshot(
  trx: Transaction<Database>,
  opts: { now: Date; requestedBy: string; approvedBy: string | null; keepOpen: boolean; termsVersion?: string | null },
): Promise<AllowlistSnapshotsTable> {
  const termsVersion = opts.termsVersion ?? null;
  let q = trx.selectFrom('allowlist_entries').select('address').orderBy('address');
  if (termsVersion !== null) q = q.where('terms_version', '=', termsVersion);
  const rows = await q.execute();
  if (rows.length === 0)
    throw new EmptyAllowlist(
      termsVersion === null
        ? 'The allowlist is empty: there is nothing to freeze.'
        : `No entry has accepted the terms version ${termsVersion}: there is nothing to freeze.`,
    );
  const tree = StandardMerkleTree.of(
    rows.map((r) => [r.address]),
    LEAF_ENCODING,
  );
  const snapshot: AllowlistSnapshotsTable = {
    id: randomUUID(),
    root: tree.root,
    entries: rows.length,
    tree: JSON.stringify(tree.dump()),
    frozen_at: opts.now.toISOString(),
    requested_by: opts.requestedBy,
    approved_by: opts.approvedBy,
    registration_after: opts.keepOpen ? 'open' : 'closed',
    terms_version: termsVersion,
  };
  await trx.insertInto('allowlist_snapshots').values(snapshot).execute();
  await setRegistration(trx, opts.keepOpen);
  return snapshot;
}

/** The newest snapshot's id, or null: a cheap question, asked before reloading a tree. */
export async function latestSnapshotId(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('allowlist_snapshots')
    .select('id')
    .orderBy('frozen_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function snapshotById(db: Db, id: string): Promise<AllowlistSnapshotsTable | undefined> {
  return db.selectFrom('allowlist_snapshots').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every snapshot, newest first, without its tree. */
export async function listSnapshots(db: Db): Promise<Omit<AllowlistSnapshotsTable, 'tree'>[]> {
  return db
    .selectFrom('allowlist_snapshots')
    .select([
      'id',
      'root',
      'entries',
      'frozen_at',
      'requested_by',
      'approved_by',
      'registration_after',
      'terms_version',
    ])
    .orderBy('frozen_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
