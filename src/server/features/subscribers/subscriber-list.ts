import { type Expression, type QueryCreator, type SqlBool, sql } from 'kysely';
import {
  maskEmail,
  SUBSTRING_SEARCH_MIN,
  type SubscriberListItem,
  type SubscriberListReply,
  type SubscriberStatusName,
} from '../../../shared/admin/subscribers.ts';
import type { Store } from '../../store/database.ts';
import { PG_SEARCH_TEXT } from '../../store/migrations/0005-console-queries.ts';
import type { Database } from '../../store/schema.ts';
import type { SignupField } from '../../../shared/signup-schema.ts';
import { givenFields } from './given-fields.ts';

// The Subscribers list: filter, search, sort by sign-up date, keyset paging on (created_at, id).
// How a search picks its plan is explained in docs/decisions/0014-console-queries.md.

export type ListStore = Pick<Store, 'db' | 'dialect'>;
export type SubscriberSort = 'newest' | 'oldest';

/** Bad input the caller should show in words (a 400), never a crash. */
export class ConsoleInputError extends Error {
  override name = 'ConsoleInputError';
}

export interface ListFilter {
  q?: string | undefined;
  status?: SubscriberStatusName | undefined;
  /** Only those who signed up in this locale (migration 0021's index serves it). */
  locale?: string | undefined;
  sort: SubscriberSort;
}

export interface ListOptions extends ListFilter {
  cursor?: string | undefined;
  limit: number;
}

/** Where a page starts: just after this row, in the sort's order. */
interface Key {
  createdAt: string;
  id: string;
}

// ---------------------------------------------------------------------------------------------
// Cursor: opaque to clients (base64url of the sort and the last row's key), checked on the way in.

export function encodeCursor(sort: SubscriberSort, key: Key): string {
  return Buffer.from(JSON.stringify([sort === 'newest' ? 'n' : 'o', key.createdAt, key.id])).toString('base64url');
}

export function decodeCursor(cursor: string, sort: SubscriberSort): Key {
  const bad = () => new ConsoleInputError('That page link is not valid any more; start again from the first page.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    !parsed.every((p) => typeof p === 'string' && p.length <= 64) ||
    !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(parsed[1] as string)
  ) {
    throw bad();
  }
  const [s, createdAt, id] = parsed as [string, string, string];
  if (s !== (sort === 'newest' ? 'n' : 'o')) {
    throw new ConsoleInputError('That page link belongs to the other sort order; start again from the first page.');
  }
  return { createdAt, id };
}

// ---------------------------------------------------------------------------------------------
// Rows

/**
 * Every column the list and the CSV export show: every field the person typed (the sign-up form's,
 * ./given-fields.ts) and what we recorded. Never a token: those live on outbox rows.
 */
const listColumns = [
  ...givenFields.map((f) => `s.${f.name}` as const),
  's.id',
  's.email_key',
  's.status',
  's.created_at',
  's.confirmed_at',
  's.unsubscribed_at',
  's.consent_version',
  's.consent_at',
  's.consent_page',
  's.country',
  's.region',
  's.city',
  's.locale',
] as const;

/** A row as read: what the person typed, one text per field of the form, and what we recorded. */
export interface ListRow extends Record<SignupField, string> {
  id: string;
  email_key: string;
  status: SubscriberStatusName;
  created_at: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  consent_version: string;
  consent_at: string;
  consent_page: string;
  country: string | null;
  region: string | null;
  city: string | null;
  locale: string;
}

/** A row as the list shows it: the address masked, no name, city or comment (decision 0029). */
const listItem = (r: ListRow): SubscriberListItem => ({
  id: r.id,
  maskedEmail: maskEmail(r.email),
  status: r.status,
  createdAt: r.created_at,
  confirmedAt: r.confirmed_at,
  unsubscribedAt: r.unsubscribed_at,
  country: r.country,
  locale: r.locale,
});

// ---------------------------------------------------------------------------------------------
// Search

/**
 * How many rows, in list order from the cursor, a search first scans for matches. A term that
 * fills a page within them is common, and the ordered scan is the fastest plan there is; one that
 * does not is rare (fewer than about one row in 200), and the text index finds its few matches.
 */
const SCAN_BUDGET = 10_000;

interface SearchPlan {
  /** The condition on a subscribers row (alias `s`), for the ordered scan. */
  filter: Expression<SqlBool>;
  /** The rows that match, found through an index (alias `s`), for a rare term. */
  indexed: () => Expression<SqlBool>;
}

const escapeLike = (term: string): string => term.replace(/[\\%_]/g, (c) => `\\${c}`);
const ftsPhrase = (term: string): string => `"${term.replace(/"/g, '""')}"`;

function searchPlan(dialect: Store['dialect'], raw: string): SearchPlan | null {
  const term = raw.trim().toLowerCase();
  if (term === '') return null;
  const length = [...term].length;

  if (length < SUBSTRING_SEARCH_MIN) {
    // Too short for trigrams (and a one-letter substring matches nearly everyone): the start of
    // the email address, which the unique index on email_key serves as a range.
    const upper = `${term}\u{10FFFF}`;
    const starts =
      dialect === 'sqlite'
        ? sql<SqlBool>`substr(s.email_key, 1, ${length}) = ${term}`
        : sql<SqlBool>`left(s.email_key, ${length}) = ${term}`;
    return {
      filter: starts,
      indexed: () => sql<SqlBool>`s.email_key >= ${term} and s.email_key < ${upper} and ${starts}`,
    };
  }

  if (dialect === 'sqlite') {
    return {
      // SQLite's lower() folds ASCII only, while the trigram index folds all of Unicode: a term
      // with other letters ("müller") is compared with dh_lower (JavaScript's toLowerCase,
      // registered by the store), so both plans always agree; ASCII terms keep the faster lower().
      // eslint-disable-next-line no-control-regex
      filter: /[^\u0000-\u007f]/.test(term)
        ? sql<SqlBool>`(instr(dh_lower(s.name), ${term}) > 0 or instr(s.email_key, ${term}) > 0)`
        : sql<SqlBool>`(instr(lower(s.name), ${term}) > 0 or instr(s.email_key, ${term}) > 0)`,
      indexed: () =>
        sql<SqlBool>`s.rowid in (select rowid from subscribers_search where subscribers_search match ${ftsPhrase(term)})`,
    };
  }
  return {
    // The same text the trigram index covers; no term holds a line feed (the query schema refuses
    // control characters), so a match never spans the name and the address.
    filter: sql<SqlBool>`strpos(${PG_SEARCH_TEXT}, ${term}) > 0`,
    indexed: () => sql<SqlBool>`${PG_SEARCH_TEXT} like ${`%${escapeLike(term)}%`}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Pages

function ordered(db: QueryCreator<Database>, filter: ListFilter, after: Key | undefined) {
  const dir = filter.sort === 'newest' ? 'desc' : 'asc';
  let q = db.selectFrom('subscribers as s');
  if (filter.status) q = q.where('s.status', '=', filter.status);
  if (filter.locale) q = q.where('s.locale', '=', filter.locale);
  if (after) {
    q = q.where((eb) =>
      eb(
        eb.refTuple('s.created_at', 's.id'),
        filter.sort === 'newest' ? '<' : '>',
        eb.tuple(after.createdAt, after.id),
      ),
    );
  }
  return q.orderBy('s.created_at', dir).orderBy('s.id', dir);
}

/** How a page was found: the list in index order, a bounded ordered scan, or the search index. */
export type PagePlan = 'ordered' | 'scan' | 'index';

/**
 * Up to `limit` rows after `after`, and whether more follow. The plan: no search → the
 * (status,) created_at, id index in order; a search → an ordered scan of at most SCAN_BUDGET rows,
 * and only when that does not fill the page, the text index (trigrams, or the email range).
 */
export async function listPage(
  store: ListStore,
  filter: ListFilter,
  after: Key | undefined,
  limit: number,
  scanBudget = SCAN_BUDGET,
): Promise<{ rows: ListRow[]; more: boolean; plan: PagePlan }> {
  const { db } = store;
  const plan = filter.q === undefined ? null : searchPlan(store.dialect, filter.q);
  const take = (rows: ListRow[], how: PagePlan) => ({
    rows: rows.slice(0, limit),
    more: rows.length > limit,
    plan: how,
  });

  if (!plan) {
    return take(
      (await ordered(db, filter, after)
        .select(listColumns)
        .limit(limit + 1)
        .execute()) as ListRow[],
      'ordered',
    );
  }

  // 1. The ordered scan, bounded: the newest (or oldest) SCAN_BUDGET rows from the cursor.
  const dir = filter.sort === 'newest' ? 'desc' : 'asc';
  const window = ordered(db, filter, after).select(listColumns).limit(scanBudget).as('s');
  const scanned = (await db
    .selectFrom(window)
    .selectAll()
    .where(() => plan.filter)
    .orderBy('s.created_at', dir)
    .orderBy('s.id', dir)
    .limit(limit + 1)
    .execute()) as ListRow[];
  if (scanned.length > limit) return take(scanned, 'scan');
  // Did the window reach the end of the list? Then the scan saw every candidate.
  const beyond = await ordered(db, filter, after).select('s.id').limit(1).offset(scanBudget).executeTakeFirst();
  if (!beyond) return take(scanned, 'scan');

  // 2. A rare term: its matches from the index, sorted here in the database. MATERIALIZED keeps
  // the planner from turning it back into an ordered scan with a filter.
  const rows = (await db
    .with(
      (cte) => cte('m').materialized(),
      (qdb) =>
        ordered(qdb, filter, after)
          .select(listColumns)
          .where(() => plan.indexed())
          .clearOrderBy(),
    )
    .selectFrom('m as s')
    .selectAll()
    .orderBy('s.created_at', dir)
    .orderBy('s.id', dir)
    .limit(limit + 1)
    .execute()) as ListRow[];
  return take(rows, 'index');
}

/** One page of the Subscribers list, in the shape the console receives. */
export async function listSubscribers(
  store: ListStore,
  opts: ListOptions,
  scanBudget = SCAN_BUDGET,
): Promise<SubscriberListReply> {
  const after = opts.cursor ? decodeCursor(opts.cursor, opts.sort) : undefined;
  const { rows, more } = await listPage(store, opts, after, opts.limit, scanBudget);
  const last = rows.at(-1);
  return {
    items: rows.map(listItem),
    nextCursor: more && last ? encodeCursor(opts.sort, { createdAt: last.created_at, id: last.id }) : null,
  };
}

/** Every row of a filtered list in order, `batch` rows per query: memory stays one batch. */
export async function* allRows(store: ListStore, filter: ListFilter, batch = 1000): AsyncGenerator<ListRow> {
  let after: Key | undefined;
  for (;;) {
    const { rows, more } = await listPage(store, filter, after, batch);
    yield* rows;
    const last = rows.at(-1);
    if (!more || !last) return;
    after = { createdAt: last.created_at, id: last.id };
  }
}
