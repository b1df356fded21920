// The allowlist feature's public surface for the operators' console: its reads and actions on the
// list and its snapshots. Other features import this module only (enforced by ESLint).
import type { Kysely, Transaction } from 'kysely';
import type { AllowlistEntriesTable, Database } from '../store/schema.ts';

export {
  EmptyAllowlist,
  freezeSnapshot,
  LEAF_ENCODING,
  listSnapshots,
  registrationOpen,
  setRegistration,
  snapshotById,
} from './snapshots.ts';
export { removeEntry } from './allowlist-store.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Entries, newest first, a page at a time; `search` is a piece of an address (any case). */
export async function listEntries(
  db: Db,
  opts: { search?: string | undefined; after?: { at: string; address: string } | null; limit: number },
): Promise<AllowlistEntriesTable[]> {
  let q = db.selectFrom('allowlist_entries').selectAll();
  // Addresses are stored EIP-55 (mixed case); a search matches any case of its hex digits.
  if (opts.search) q = q.where((eb) => eb(eb.fn('lower', ['address']), 'like', `%${opts.search?.toLowerCase()}%`));
  const after = opts.after;
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('joined_at', '<', after.at),
        eb.and([eb('joined_at', '=', after.at), eb('address', '<', after.address)]),
      ]),
    );
  return q.orderBy('joined_at', 'desc').orderBy('address', 'desc').limit(opts.limit).execute();
}

/** How many are on the list now, and how many of them joined on each UTC day. */
export async function entryCounts(db: Db): Promise<{ total: number; byDay: { day: string; joined: number }[] }> {
  const rows = await db
    .selectFrom('allowlist_entries')
    .select((eb) => [
      eb.fn('substr', ['joined_at', eb.val(1), eb.val(10)]).as('day'),
      eb.fn.countAll<number | string>().as('n'),
    ])
    .groupBy('day')
    .orderBy('day')
    .execute();
  const byDay = rows.map((r) => ({ day: String(r.day), joined: Number(r.n) }));
  return { total: byDay.reduce((sum, d) => sum + d.joined, 0), byDay };
}

/** Every entry, oldest first, a batch at a time (the CSV export). */
export async function* allEntries(db: Kysely<Database>, batch = 500): AsyncGenerator<AllowlistEntriesTable> {
  let after: string | null = null;
  for (;;) {
    let q = db.selectFrom('allowlist_entries').selectAll().orderBy('address').limit(batch);
    if (after !== null) q = q.where('address', '>', after);
    const rows = await q.execute();
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < batch) return;
    after = last.address;
  }
}
