import { CompiledQuery, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertConfirmedSubscribers, insertSubscriber } from '../../test/fixtures.ts';
import { openTestStore, testClock, testPostgresUrl, type TestStore } from '../../test/test-store.ts';
import { captureUpdates } from '../../test/update-capture.ts';
import type { Mailer } from './mailer.ts';
import { newOutboxRow } from './outbox.ts';
import { OutboxWorker } from './outbox-worker.ts';

// Each claim looks for due confirmations and for due broadcast rows. Either look must go through
// an index that holds only its own kind of row (migrations 0007 and 0022): on the shared
// outbox_due index the broadcast look walked past every queued confirmation, 3 ms per claim behind
// 30,000 of them, in the event loop (docs/decisions/0047-signup-cost-round-trips.md). SQLite's plan
// is asked for the very statements the worker sends, captured as it sends them.
describe('the outbox claim on SQLite', () => {
  let store: TestStore;
  const clock = testClock();
  beforeEach(async () => {
    clock.set('2026-11-21T12:00:00.000Z');
    store = await openTestStore('sqlite');
  });
  afterEach(async () => {
    await store.destroy();
  });

  it('finds due confirmations and due broadcast rows each through an index of their own kind only', async () => {
    const sent: string[] = [];
    const mailer: Mailer = {
      description: 'memory',
      send: async (m) => {
        sent.push(m.to);
      },
      close: () => undefined,
    };
    const id = await insertSubscriber(store.db, 'a@example.com', { now: clock() });
    await store.db
      .insertInto('outbox')
      .values(newOutboxRow('note', id, clock()))
      .execute();

    const { db, updates } = captureUpdates(store.db);
    const worker = new OutboxWorker({
      db,
      dialect: 'sqlite',
      mailer,
      clock,
      kinds: new Map([['note', async () => ({ to: 'a@example.com', subject: 's', text: 't', html: '<p>t</p>' })]]),
    });
    expect(await worker.runOnce()).toBe(1);
    expect(sent).toEqual(['a@example.com']);

    const plans: string[] = [];
    for (const compiled of updates) {
      if (!/update "outbox" set "locked_by" = \?, "locked_until"/.test(compiled.sql)) continue;
      const rows = await store.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      plans.push(rows.rows.map((r) => r.detail).join('; '));
    }
    expect(plans).toHaveLength(2);
    expect(plans[0]).toMatch(/USING INDEX outbox_due_others \(status=\? AND next_attempt_at<\?\)/);
    expect(plans[1]).toMatch(/USING INDEX outbox_due_broadcast \(status=\? AND next_attempt_at<\?\)/);
    await worker.stop();
  });
});

// PostgreSQL chooses by its statistics, and right after a burst it has none for the rows the burst
// added (autovacuum analyses a minute later at best). It then guessed one pending confirmation
// and claimed through outbox_broadcast_status, fetching every pending confirmation and sorting
// them on disk at each claim: 26–60 ms per claim behind 37,000, inside the group commit that every
// sign-up of the moment waits on (docs/decisions/0051). Migration 0023 leaves that index to the
// broadcast rows, so the claim has only indexes in its own order to choose from. The plan is asked
// before the table is analysed, as a burst finds it, and after.
describe.skipIf(!testPostgresUrl)('the outbox claim on PostgreSQL', () => {
  let store: TestStore;
  const clock = testClock();
  beforeEach(async () => {
    clock.set('2026-11-21T12:00:00.000Z');
    store = await openTestStore('postgres');
  });
  afterEach(async () => {
    await store.destroy();
  });

  // 30,000 queued rows, so the planner has a queue worth an index: about 9 s on PostgreSQL here.
  it(
    'walks an index in queue order and sorts nothing, with or without statistics, behind thousands of confirmations',
    { timeout: 60_000 },
    async () => {
      const emails = Array.from({ length: 30000 }, (_, i) => `p${i}@example.com`);
      const ids = await insertConfirmedSubscribers(store.db, emails, clock());
      for (let i = 0; i < ids.length; i += 500) {
        await store.db
          .insertInto('outbox')
          .values(
            ids.slice(i, i + 500).map((id, k) => newOutboxRow('note', id, new Date(clock().getTime() + (i + k) * 2))),
          )
          .execute();
      }
      clock.set(new Date(clock().getTime() + ids.length * 2).toISOString());

      const { db, updates } = captureUpdates(store.db);
      const worker = new OutboxWorker({
        db,
        dialect: 'postgres',
        mailer: { description: 'memory', send: async () => undefined, close: () => undefined },
        clock,
        kinds: new Map([['note', async () => ({ to: 'a@example.com', subject: 's', text: 't', html: '<p>t</p>' })]]),
        batchSize: 1,
      });
      expect(await worker.runOnce()).toBe(1);
      await worker.stop();
      const claim = updates.find(
        (c) =>
          /update "outbox" set "locked_by" = \$1, "locked_until"/.test(c.sql) && /"broadcast_id" is null/.test(c.sql),
      );
      if (!claim) throw new Error('the worker sent no claim for confirmations');

      const plan = async () =>
        (
          await store.db.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain ${claim.sql}`, [...claim.parameters]),
          )
        ).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      for (const when of ['before analyse', 'after analyse']) {
        if (when === 'after analyse') await sql`analyze outbox`.execute(store.db);
        const text = await plan();
        expect(text, when).not.toMatch(/\bSort\b/);
        expect(text, when).not.toMatch(/outbox_broadcast_status/);
        expect(text, when).toMatch(/Index Scan using outbox_due(_others)? on outbox/);
      }
    },
  );
});
