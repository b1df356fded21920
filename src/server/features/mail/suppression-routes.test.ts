import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPageSchema } from '../../../shared/admin/audit-schema.ts';
import { suppressionListSchema } from '../../../shared/admin/suppressions.ts';
import { apiErrorSchema } from '../../../shared/api-error.ts';
import { adminApiPaths, withId } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { codeAt, ConsoleClient, makeOperator, type TestOperator } from '../../test/admin-kit.ts';

describe.each(dialectCases)('the suppression list in the console ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let owner: TestOperator;
  let c: ConsoleClient;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store });
    owner = await makeOperator(store.db, 'owner@dh.example', t.clock(), 'owner');
    c = new ConsoleClient(t.app);
    await c.signIn(owner, t.clock());
  });
  afterAll(async () => {
    if (skip) return;
    await t.close();
    await store.destroy();
  });

  const list = async () => {
    const res = await c.get(adminApiPaths.suppressions);
    expect(res.statusCode, res.body).toBe(200);
    return suppressionListSchema.parse(res.json());
  };

  it.skipIf(skip)('lists entries without addresses; an owner lifts one with fresh proof, audited, once', async () => {
    await t.app.suppressions.suppress(store.db, {
      address: 'gone@example.com',
      reason: 'hard-bounce',
      source: 'smtp',
      detail: '5.1.1',
      now: t.clock(),
    });
    const before = await list();
    expect(before.standing).toBe(1);
    expect(before.entries).toMatchObject([{ reason: 'hard-bounce', source: 'smtp', detail: '5.1.1', liftedAt: null }]);
    expect(JSON.stringify(before)).not.toContain('gone@');
    const id = before.entries[0]?.id ?? '';

    // Without a fresh code: refused, nothing lifted.
    t.clock.advance(10 * 60_000);
    const refused = await c.post(withId(adminApiPaths.suppressionLift, id), {});
    expect(refused.statusCode).toBe(403);
    expect(apiErrorSchema.parse(refused.json()).error.code).toBe('fresh_proof_required');
    expect((await list()).standing).toBe(1);

    t.clock.advance(31_000);
    expect((await c.post(adminApiPaths.freshProof, { code: codeAt(owner, t.clock()) })).statusCode).toBe(200);
    const lifted = await c.post(withId(adminApiPaths.suppressionLift, id), {});
    expect(lifted.statusCode, lifted.body).toBe(200);
    const after = await list();
    expect(after.standing).toBe(0);
    expect(after.entries[0]).toMatchObject({ id, liftedBy: 'owner@dh.example' });
    expect(await t.app.suppressions.isSuppressed(store.db, 'gone@example.com')).toBe(false);

    const entry = auditPageSchema.parse(
      (await c.get(`${adminApiPaths.audit}?limit=1&action=suppression.lifted`)).json(),
    ).entries[0];
    expect(entry).toMatchObject({ action: 'suppression.lifted', subject: id, detail: 'hard-bounce' });

    const again = await c.post(withId(adminApiPaths.suppressionLift, id), {});
    expect(again.statusCode).toBe(404);
    expect(apiErrorSchema.parse(again.json()).error.code).toBe('not_found');
  });

  it.skipIf(skip)('pages the list newest first with a cursor: every entry once, none twice', async () => {
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      await t.app.suppressions.suppress(store.db, {
        address: `paged${i}@example.com`,
        reason: 'complaint',
        source: 'arf',
        now: t.clock(),
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await c.get(`${adminApiPaths.suppressions}?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = suppressionListSchema.parse(res.json());
      expect(body.entries.length).toBeLessThanOrEqual(2);
      seen.push(...body.entries.map((e) => e.createdAt + e.id));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor);
    const all = await store.db.selectFrom('suppressions').select(['created_at', 'id']).execute();
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual(
      all
        .map((r) => r.created_at + r.id)
        .sort()
        .reverse(),
    );
    const bad = await c.get(`${adminApiPaths.suppressions}?limit=5000`);
    expect(bad.statusCode).toBe(400);
  });

  it.skipIf(skip)(
    'exports the list as CSV with fresh proof, audited with its row count, with no address in it',
    async () => {
      // Later than every other entry, so it is the file's first row.
      t.clock.advance(1000);
      await t.app.suppressions.suppress(store.db, {
        address: 'csv-person@example.com',
        reason: 'hard-bounce',
        source: 'smtp',
        detail: '=HYPERLINK("x")',
        now: t.clock(),
      });
      const total = (await store.db.selectFrom('suppressions').select('id').execute()).length;

      t.clock.advance(10 * 60_000);
      const refused = await c.post(adminApiPaths.suppressionsCsv, {});
      expect(refused.statusCode).toBe(403);
      expect(apiErrorSchema.parse(refused.json()).error.code).toBe('fresh_proof_required');

      t.clock.advance(31_000);
      expect((await c.post(adminApiPaths.freshProof, { code: codeAt(owner, t.clock()) })).statusCode).toBe(200);
      const res = await c.post(adminApiPaths.suppressionsCsv, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="suppressions-\d{8}-\d{4}\.csv"$/);
      const lines = res.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]).toBe('"Id","Reason","Source","Detail","Suppressed (UTC)","Lifted (UTC)"');
      expect(lines).toHaveLength(total + 1);
      expect(res.body).not.toContain('@');
      // Newest first; a detail a spreadsheet would run is defused.
      expect(lines[1]).toContain('"hard-bounce","smtp","\'=HYPERLINK(""x"")"');

      const entry = auditPageSchema.parse(
        (await c.get(`${adminApiPaths.audit}?limit=1&action=suppressions.exported`)).json(),
      ).entries[0];
      expect(entry).toMatchObject({
        action: 'suppressions.exported',
        actor: 'owner@dh.example',
        detail: `CSV; ${total} rows`,
      });
    },
  );
});
