// The allowlist's reads for the console's Allowlist view: the list with its linked addresses.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../store/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * An entry as the console reads it. `email` says whether its holder linked an email: 'linked' only
 * once the email's owner pressed the button of the email sent for this wallet's link (neither the
 * sign-up's own confirmation nor an address confirmed before counts: migration 0024); else
 * 'pending' while such an email's link is unexpired; else 'none' (no link, an expired one, or an
 * erased person). A linked wallet with a newer request pending reads 'linked': what counts now.
 * Never the address itself.
 */
export interface ConsoleEntry {
  address: string;
  joined_at: string;
  country: string | null;
  email: EmailLink;
  /** The terms version its signed message accepted; null: it joined before any terms. */
  terms_version: string | null;
}
type EmailLink = 'linked' | 'pending' | 'none';

// The confirmed link is the entry's own column; a request is pending until it expires. The
// allowlist never reads or holds the subscriber's address.
const withLink = (db: Db, now: Date) =>
  db
    .selectFrom('allowlist_entries')
    .leftJoin('allowlist_link_requests', (join) =>
      join
        .onRef('allowlist_link_requests.address', '=', 'allowlist_entries.address')
        .on('allowlist_link_requests.expires_at', '>', now.toISOString()),
    )
    .select([
      'allowlist_entries.address',
      'allowlist_entries.joined_at',
      'allowlist_entries.country',
      'allowlist_entries.subscriber_id',
      'allowlist_entries.terms_version',
      'allowlist_link_requests.asked_at',
    ]);

const toConsole = (r: {
  address: string;
  joined_at: string;
  country: string | null;
  subscriber_id: string | null;
  terms_version: string | null;
  asked_at: string | null;
}): ConsoleEntry => ({
  address: r.address,
  joined_at: r.joined_at,
  country: r.country,
  terms_version: r.terms_version,
  email: r.subscriber_id !== null ? 'linked' : r.asked_at !== null ? 'pending' : 'none',
});

/** Entries, newest first, a page at a time; `search` is a piece of an address (any case). */
export async function listEntries(
  db: Db,
  opts: {
    search?: string | undefined;
    after?: { at: string; address: string } | null;
    limit: number;
    /** Requests that expired by then are not pending. */
    now: Date;
  },
): Promise<ConsoleEntry[]> {
  let q = withLink(db, opts.now);
  // Addresses are stored EIP-55 (mixed case); a search matches any case of its hex digits.
  if (opts.search)
    q = q.where((eb) => eb(eb.fn('lower', ['allowlist_entries.address']), 'like', `%${opts.search?.toLowerCase()}%`));
  const after = opts.after;
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('joined_at', '<', after.at),
        eb.and([eb('joined_at', '=', after.at), eb('allowlist_entries.address', '<', after.address)]),
      ]),
    );
  const rows = await q
    .orderBy('joined_at', 'desc')
    .orderBy('allowlist_entries.address', 'desc')
    .limit(opts.limit)
    .execute();
  return rows.map(toConsole);
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
export async function* allEntries(db: Kysely<Database>, now: Date, batch = 500): AsyncGenerator<ConsoleEntry> {
  let after: string | null = null;
  for (;;) {
    let q = withLink(db, now).orderBy('allowlist_entries.address').limit(batch);
    if (after !== null) q = q.where('allowlist_entries.address', '>', after);
    const rows = (await q.execute()).map(toConsole);
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < batch) return;
    after = last.address;
  }
}

/** How many entries accepted `version` (the live terms); the rest accepted an older one or none. */
export async function entriesOnTerms(db: Db, version: string): Promise<number> {
  const row = await db
    .selectFrom('allowlist_entries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('terms_version', '=', version)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
