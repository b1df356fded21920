import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertSubscriber } from '../../test/fixtures.ts';
import { migrateTheRest, migrateUpTo } from '../../test/migration-steps.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';

// Links made before migration 0024 never asked the email's owner (one confirmed address backed
// four wallets in a row): none of them counts after it, and from then on one email backs one
// wallet at most.
for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`migration 0024 on ${label}`, () => {
    let store: TestStore;
    beforeEach(async () => {
      store = await openTestStore(dialect, { migrate: false });
    });
    afterEach(() => store.destroy());

    it('drops every link made before it, and holds one wallet per email from then on', async () => {
      await migrateUpTo(store, '0023-outbox-broadcast-status-partial');
      const id = await insertSubscriber(store.db, 'hal@example.com', { status: 'confirmed' });
      const at = '2026-11-27T10:00:00.000Z';
      // As the code before it wrote them: four wallets on one confirmed address, linked at once.
      for (const n of [1, 2, 3, 4])
        await sql`insert into allowlist_entries (address, joined_at, country, subscriber_id, link_asked_at)
          values (${`0x${String(n).repeat(40)}`}, ${at}, null, ${id}, ${at})`.execute(store.db);

      expect(await migrateTheRest(store)).toContain('0024-wallet-link-confirmation');
      const entries = await store.db.selectFrom('allowlist_entries').selectAll().orderBy('address').execute();
      expect(entries.map((e) => [e.subscriber_id, e.email_linked_at])).toEqual(Array(4).fill([null, null]));
      expect(Object.keys(entries[0] ?? {})).not.toContain('link_asked_at');

      const link = (address: string) =>
        store.db.updateTable('allowlist_entries').set({ subscriber_id: id }).where('address', '=', address).execute();
      await link(`0x${'1'.repeat(40)}`);
      await expect(link(`0x${'2'.repeat(40)}`)).rejects.toThrow(/unique/i);
    });
  });
}
