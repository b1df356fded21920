import { afterEach, describe, expect, it } from 'vitest';
import { metricsPath } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { sampleOf } from '../../test/prometheus-text.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { newOutboxRow } from './outbox.ts';
import { outboxBacklog } from './outbox-backlog.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

let t: TestApp | undefined;
let store: TestStore | undefined;
afterEach(async () => {
  await t?.close();
  await store?.destroy().catch(() => undefined);
  t = store = undefined;
});

const scrape = async (app: TestApp['app']) => {
  const res = await app.inject({ url: metricsPath, headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`the outbox backlog on ${label}`, () => {
    it('counts pending rows by kind and ages the oldest of each; sent, failed and cancelled rows are not backlog', async () => {
      store = await openTestStore(dialect);
      t = await buildTestApp({ store, env: { METRICS_TOKEN: TOKEN } });
      const now = t.clock().getTime();
      const ago = (s: number) => new Date(now - s * 1000);
      const sub = await insertSubscriber(store.db, 'backlog@example.com', { now: ago(600) });
      await store.db
        .insertInto('outbox')
        .values([
          newOutboxRow('confirmation', sub, ago(120)),
          newOutboxRow('confirmation', sub, ago(30)),
          newOutboxRow('broadcast', sub, ago(10)),
          { ...newOutboxRow('broadcast', sub, ago(500)), status: 'sent' as const },
          { ...newOutboxRow('broadcast', sub, ago(400)), status: 'failed' as const },
          { ...newOutboxRow('confirmation', sub, ago(300)), status: 'cancelled' as const },
        ])
        .execute();

      const rows = await outboxBacklog(store.db);
      expect(rows.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
        { kind: 'broadcast', pending: 1, oldestCreatedAt: ago(10).toISOString() },
        { kind: 'confirmation', pending: 2, oldestCreatedAt: ago(120).toISOString() },
      ]);

      const body = await scrape(t.app);
      expect(sampleOf(body, 'dh_outbox_pending', { kind: 'confirmation' })).toBe(2);
      expect(sampleOf(body, 'dh_outbox_pending', { kind: 'broadcast' })).toBe(1);
      expect(sampleOf(body, 'dh_outbox_oldest_pending_age_seconds', { kind: 'confirmation' })).toBe(120);
      expect(sampleOf(body, 'dh_outbox_oldest_pending_age_seconds', { kind: 'broadcast' })).toBe(10);

      // Once sent, a kind reads 0 rather than vanishing from the scrape.
      await store.db.updateTable('outbox').set({ status: 'sent' }).where('kind', '=', 'confirmation').execute();
      t.clock.advance(60_000);
      const later = await scrape(t.app);
      expect(sampleOf(later, 'dh_outbox_pending', { kind: 'confirmation' })).toBe(0);
      expect(sampleOf(later, 'dh_outbox_oldest_pending_age_seconds', { kind: 'confirmation' })).toBe(0);
      expect(sampleOf(later, 'dh_outbox_oldest_pending_age_seconds', { kind: 'broadcast' })).toBe(70);
    });

    it('still answers when the store cannot: everything but the backlog, which is left out rather than guessed', async () => {
      store = await openTestStore(dialect);
      t = await buildTestApp({ store, env: { METRICS_TOKEN: TOKEN } });
      const sub = await insertSubscriber(store.db, 'backlog@example.com');
      await store.db
        .insertInto('outbox')
        .values(newOutboxRow('confirmation', sub, t.clock()))
        .execute();
      expect(sampleOf(await scrape(t.app), 'dh_outbox_pending', { kind: 'confirmation' })).toBe(1);
      await store.close();
      const body = await scrape(t.app);
      expect(sampleOf(body, 'dh_outbox_pending', { kind: 'confirmation' })).toBeUndefined();
      expect(sampleOf(body, 'dh_http_requests_total', { method: 'GET', route: metricsPath, status: '200' })).toBe(1);
    });
  });
}
