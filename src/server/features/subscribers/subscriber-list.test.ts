import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, SubscriberStatus } from '../../store/schema.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import {
  ConsoleInputError,
  decodeCursor,
  encodeCursor,
  listPage,
  listSubscribers,
  type ListFilter,
} from './subscriber-list.ts';
import { recordConsentWording } from '../signups/signup-store.ts';

interface Person {
  id: string;
  email: string;
  name: string;
  status: SubscriberStatus;
  created_at: string;
}

const statuses: SubscriberStatus[] = ['pending', 'confirmed', 'unsubscribed'];
const names = [
  'Ada Lovelace',
  'Émile Zola',
  'GRACE Hopper',
  'Alan Turing',
  'Ada Byron',
  '100% Sure_Bet',
  'Quote "Q" Person',
];

/** People with known fields; some share a creation time, so the id breaks ties. */
function people(n: number): Person[] {
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    email: `user${i}@${i % 3 === 0 ? 'Example.org' : 'mail.test'}`.replace('Example.org', 'example.org'),
    name: `${names[i % names.length]} ${i}`,
    status: statuses[i % 3] as SubscriberStatus,
    created_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2) * 60_000).toISOString(),
  }));
}

async function insert(db: Kysely<Database>, list: Person[]): Promise<void> {
  for (let i = 0; i < list.length; i += 100) {
    await db
      .insertInto('subscribers')
      .values(
        list.slice(i, i + 100).map((p) => ({
          ...p,
          email_key: p.email.toLowerCase(),
          comment: '',
          updated_at: p.created_at,
          confirmed_at: p.status === 'confirmed' ? p.created_at : null,
          unsubscribed_at: p.status === 'unsubscribed' ? p.created_at : null,
          last_confirmation_at: p.created_at,
          consent_version: '2026-11-21',
          consent_at: p.created_at,
          consent_page: '/',
          country: 'DE',
          region: 'Berlin',
          city: 'Berlin',
        })),
      )
      .execute();
  }
}

const newestFirst = (a: Person, b: Person) =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;

/** What a search should find, by its definition: substring of lower-cased name or email (≥ 3), else email prefix. */
const matches = (p: Person, q: string) => {
  const t = q.trim().toLowerCase();
  return [...t].length >= 3
    ? p.name.toLowerCase().includes(t) || p.email.toLowerCase().includes(t)
    : p.email.toLowerCase().startsWith(t);
};

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`subscriber list on ${label}`, () => {
    let store: TestStore;
    const all = people(120);

    beforeAll(async () => {
      store = await openTestStore(dialect);
      await recordConsentWording(store.db, new Date());
      await insert(store.db, all);
    });
    afterAll(() => store.destroy());

    /** Every page of a listing, following nextCursor, with the page plans used. */
    async function walk(filter: ListFilter, limit: number, budget?: number) {
      const seen: string[] = [];
      const plans = new Set<string>();
      let cursor: string | undefined;
      for (let pages = 0; pages < 1000; pages++) {
        const after = cursor ? decodeCursor(cursor, filter.sort) : undefined;
        const page = await listPage(store, filter, after, limit, budget);
        plans.add(page.plan);
        seen.push(...page.rows.map((r) => r.id));
        const last = page.rows.at(-1);
        if (!page.more || !last) break;
        cursor = encodeCursor(filter.sort, { createdAt: last.created_at, id: last.id });
      }
      return { ids: seen, plans };
    }

    it('pages through everyone newest first and oldest first, each person once, ties broken by id', async () => {
      const expected = [...all].sort(newestFirst).map((p) => p.id);
      expect((await walk({ sort: 'newest' }, 7)).ids).toEqual(expected);
      expect((await walk({ sort: 'oldest' }, 11)).ids).toEqual([...expected].reverse());
    });

    it('filters by status, with paging', async () => {
      for (const status of statuses) {
        const expected = all
          .filter((p) => p.status === status)
          .sort(newestFirst)
          .map((p) => p.id);
        expect((await walk({ sort: 'newest', status }, 9)).ids).toEqual(expected);
      }
    });

    it('answers the console shape: masked addresses, no name or city, and an opaque cursor, null on the last page', async () => {
      const first = await listSubscribers(store, { sort: 'newest', limit: 100 });
      expect(first.items).toHaveLength(100);
      const newest = [...all].sort(newestFirst)[0] as Person;
      expect(first.items[0]).toEqual({
        id: newest.id,
        maskedEmail: `u•••@${newest.email.split('@')[1] ?? ''}`,
        status: newest.status,
        createdAt: newest.created_at,
        confirmedAt: newest.status === 'confirmed' ? newest.created_at : null,
        unsubscribedAt: newest.status === 'unsubscribed' ? newest.created_at : null,
        country: 'DE',
        locale: 'en',
      });
      expect(JSON.stringify(first)).not.toContain(newest.email);
      expect(JSON.stringify(first)).not.toContain('Berlin');
      expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
      const second = await listSubscribers(store, { sort: 'newest', limit: 100, cursor: first.nextCursor ?? '' });
      expect(second.items).toHaveLength(20);
      expect(second.nextCursor).toBeNull();
    });

    it('refuses a forged or foreign cursor with a sentence, not a crash', async () => {
      for (const cursor of [
        'nonsense',
        Buffer.from('[1,2,3]').toString('base64url'),
        Buffer.from('["n","x","y"]').toString('base64url'),
      ]) {
        await expect(listSubscribers(store, { sort: 'newest', limit: 5, cursor })).rejects.toThrow(ConsoleInputError);
      }
      const { nextCursor } = await listSubscribers(store, { sort: 'newest', limit: 5 });
      await expect(listSubscribers(store, { sort: 'oldest', limit: 5, cursor: nextCursor ?? '' })).rejects.toThrow(
        /other sort order/,
      );
    });

    // Each search runs twice: with the real scan budget (the ordered scan answers) and with a
    // budget of 3 rows (a rare term: the text index answers). Both must give the defined result.
    const searches = [
      'ada', // name, case-insensitive, several people
      'ADA LOVE', // across a space, upper-case term
      'émile', // non-ASCII letters
      'EXAMPLE.ORG', // part of the address, any case
      'user17@', // one address
      '100%', // LIKE's wildcard is a literal
      'sure_b', // so is its single-character wildcard
      '"q"', // FTS5's quote is a literal
      'us', // short: start of the address
      'u', // shorter still
      'zz', // short, nobody
      'nobody-has-this', // long, nobody
    ];
    for (const q of searches) {
      it(`search ${JSON.stringify(q)}: the same people by either plan, newest first, paged`, async () => {
        const expected = all
          .filter((p) => matches(p, q))
          .sort(newestFirst)
          .map((p) => p.id);
        const scan = await walk({ sort: 'newest', q }, 4);
        const indexed = await walk({ sort: 'newest', q }, 4, 3);
        expect(scan.ids).toEqual(expected);
        expect(indexed.ids).toEqual(expected);
        if (expected.length > 4) expect(indexed.plans).toContain('index');
      });
    }

    it('combines search with a status filter and the oldest-first sort', async () => {
      const expected = all
        .filter((p) => p.status === 'confirmed' && matches(p, 'mail.test'))
        .sort(newestFirst)
        .reverse()
        .map((p) => p.id);
      expect(expected.length).toBeGreaterThan(10);
      expect((await walk({ sort: 'oldest', status: 'confirmed', q: 'mail.test' }, 6, 3)).ids).toEqual(expected);
      expect((await walk({ sort: 'oldest', status: 'confirmed', q: 'mail.test' }, 6)).ids).toEqual(expected);
    });

    it('keeps the search index in step with changes to names and with deletions', async () => {
      const [p] = all;
      if (!p) throw new Error('no people');
      await store.db.updateTable('subscribers').set({ name: 'Zebediah Renamed' }).where('id', '=', p.id).execute();
      const found = await listPage(store, { sort: 'newest', q: 'zebediah' }, undefined, 10, 1);
      expect(found.rows.map((r) => r.id)).toEqual([p.id]);
      const old = await listPage(store, { sort: 'newest', q: p.name.toLowerCase() }, undefined, 10, 1);
      expect(old.rows.map((r) => r.id)).not.toContain(p.id);
      await store.db.deleteFrom('subscribers').where('id', '=', p.id).execute();
      const gone = await listPage(store, { sort: 'newest', q: 'zebediah' }, undefined, 10, 1);
      expect(gone.rows).toEqual([]);
      all.shift();
    });
  });
}
