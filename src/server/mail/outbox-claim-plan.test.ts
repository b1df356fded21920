import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertSubscriber } from '../test/fixtures.ts';
import { openTestStore, testClock, type TestStore } from '../test/test-store.ts';
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

    const claims: RootOperationNode[] = [];
    const capture: KyselyPlugin = {
      transformQuery: ({ node }) => {
        if (node.kind === 'UpdateQueryNode') claims.push(node);
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const db = store.db.withPlugin(capture);
    const worker = new OutboxWorker({
      db,
      dialect: 'sqlite',
      mailer,
      clock,
      kinds: new Map([['note', async () => ({ to: 'a@example.com', subject: 's', text: 't', html: '<p>t</p>' })]]),
    });
    expect(await worker.runOnce()).toBe(1);
    expect(sent).toEqual(['a@example.com']);

    const executor = store.db.getExecutor();
    const plans: string[] = [];
    for (const node of claims) {
      const compiled = executor.compileQuery(node, { queryId: 'plan' });
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
