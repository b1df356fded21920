import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPageSchema } from '../../shared/admin/audit-schema.ts';
import { suppressionListSchema } from '../../shared/admin/suppressions.ts';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { adminApiPaths, withId } from '../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../test/test-store.ts';
import { codeAt, ConsoleClient, makeOperator, type TestOperator } from './test-kit.ts';

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
    await t.app.suppressions.suppress(store.db, { address: 'gone@example.com', reason: 'hard-bounce', source: 'smtp', detail: '5.1.1', now: t.clock() });
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

    const entry = auditPageSchema.parse((await c.get(`${adminApiPaths.audit}?limit=1&action=suppression.lifted`)).json()).entries[0];
    expect(entry).toMatchObject({ action: 'suppression.lifted', subject: id, detail: 'hard-bounce' });

    const again = await c.post(withId(adminApiPaths.suppressionLift, id), {});
    expect(again.statusCode).toBe(404);
    expect(apiErrorSchema.parse(again.json()).error.code).toBe('not_found');
  });
});
