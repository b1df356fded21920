import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '../../../shared/admin/audit-schema.ts';
import { subscriberDetailSchema } from '../../../shared/admin/subscribers.ts';
import { adminApiPaths, subscriberApiPath } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { insertConfirmedSubscribers } from '../../test/fixtures.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { countPersonalReads, personalReadsToday } from './personal-data-allowance.ts';
import { codeAt, ConsoleClient, makeOperator, type TestOperator } from '../../test/admin-kit.ts';

// Personal data is read on purpose: past a daily allowance (3 here) each read needs fresh proof,
// and the count lives in the database, so every instance meters the same allowance.
const ALLOWANCE = 3;

describe.each(dialectCases)('the daily allowance of personal records ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  const clock = testClock('2026-11-21T12:00:00.000Z');
  let a: TestApp;
  let b: TestApp;
  let op: TestOperator;
  let atA: ConsoleClient;
  let atB: ConsoleClient;
  let ids: string[] = [];
  let operatorId = '';

  const details = (c: ConsoleClient, id: string) => c.post(subscriberApiPath(adminApiPaths.subscriberDetails, id));
  const audits = async (action: AuditAction) =>
    await store.db
      .selectFrom('audit_log')
      .select(['subject', 'detail'])
      .where('action', '=', action)
      .orderBy('at')
      .orderBy('detail')
      .execute();
  const freshProof = async (c: ConsoleClient) => {
    clock.advance(31_000);
    const res = await c.post(adminApiPaths.freshProof, { code: codeAt(op, clock()) });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    // Two instances on one database: the allowance is the database's, not a process's.
    const env = { PERSONAL_DATA_DAILY_ALLOWANCE: String(ALLOWANCE) };
    a = await buildTestApp({ store, clock, env });
    b = await buildTestApp({ store, clock, env });
    // People made straight in the store (the public form is tested elsewhere).
    ids = await insertConfirmedSubscribers(
      store.db,
      Array.from({ length: 8 }, (_, i) => `person${i}@example.com`),
      clock(),
    );
    op = await makeOperator(store.db, `allowance-${dialect}@example.com`, clock(), 'sender');
    operatorId = (
      await store.db.selectFrom('operators').select('id').where('email', '=', op.email).executeTakeFirstOrThrow()
    ).id;
    // Signed in with a recovery code: a session without fresh proof, as a stolen cookie would be.
    atA = new ConsoleClient(a.app);
    await atA.password(op.email);
    expect((await atA.recovery(op.recoveryCodes[0] ?? '')).statusCode).toBe(200);
    atB = new ConsoleClient(b.app);
    atB.cookies.set('__Host-dh_admin', atA.cookies.get('__Host-dh_admin') ?? '');
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store?.destroy();
  });

  it.skipIf(skip)(
    'lets a session read within the allowance on any instance, then asks for a code and counts nothing',
    async () => {
      expect((await details(atA, ids[0] ?? '')).statusCode).toBe(200);
      expect((await details(atB, ids[1] ?? '')).statusCode).toBe(200);
      // A search is a question about people: it counts as one record too.
      expect((await atA.get(`${adminApiPaths.subscribers}?q=person5`)).statusCode).toBe(200);
      // Paging the masked list reads nobody's data: free.
      expect((await atB.get(adminApiPaths.subscribers)).statusCode).toBe(200);
      expect(await personalReadsToday(store.db, operatorId, clock())).toBe(3);

      for (const [c, id] of [
        [atA, ids[2]],
        [atB, ids[3]],
      ] as const) {
        const refused = await details(c, id ?? '');
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error.code).toBe('fresh_proof_required');
        expect(refused.body).not.toContain('person');
      }
      expect((await atA.get(`${adminApiPaths.subscribers}?q=person2@example.com`)).json().error.code).toBe(
        'fresh_proof_required',
      );
      expect((await atA.post(adminApiPaths.subscribersCsv, {})).json().error.code).toBe('fresh_proof_required');
      expect(await personalReadsToday(store.db, operatorId, clock())).toBe(3);
      expect((await audits('subscriber.viewed')).map((r) => r.subject)).toEqual([ids[0], ids[1]]);
      expect((await audits('subscriber.viewed')).map((r) => r.detail)).toEqual([
        '1 of 3 personal records read today',
        '2 of 3 personal records read today',
      ]);
    },
  );

  it.skipIf(skip)('reads past the allowance with fresh proof, audited with the count; never the address', async () => {
    await freshProof(atA);
    const res = await details(atB, ids[2] ?? '');
    expect(res.statusCode, res.body).toBe(200);
    expect(subscriberDetailSchema.parse(res.json())).toMatchObject({
      email: 'person2@example.com',
      reads: { today: 4, allowance: 3 },
    });
    const last = (await audits('subscriber.viewed')).at(-1);
    expect(last).toEqual({
      subject: ids[2],
      detail: '4 personal records read today, past the daily allowance of 3 (with fresh proof)',
    });
    expect(JSON.stringify(await store.db.selectFrom('audit_log').selectAll().execute())).not.toContain('person2@');
  });

  it.skipIf(skip)('counts the rows a CSV export hands out, and audits the count', async () => {
    const res = await atA.post(adminApiPaths.subscribersCsv, {});
    expect(res.statusCode, res.body).toBe(200);
    await expect
      .poll(async () => (await audits('subscribers.export-counted')).at(-1)?.detail)
      .toBe('8 rows; 12 personal records read today, past the daily allowance of 3 (with fresh proof)');
    expect(await personalReadsToday(store.db, operatorId, clock())).toBe(12);
  });

  it.skipIf(skip)('starts a new allowance each UTC day', async () => {
    clock.advance(Date.parse('2026-11-21T23:59:59.000Z') - clock().getTime());
    // A second before midnight the day's reads are spent; a second after it, a new allowance.
    const c = new ConsoleClient(a.app);
    await c.password(op.email);
    expect((await c.recovery(op.recoveryCodes[1] ?? '')).statusCode).toBe(200);
    expect((await details(c, ids[4] ?? '')).statusCode).toBe(403);
    clock.advance(2000);
    expect((await details(c, ids[4] ?? '')).json()).toMatchObject({ reads: { today: 1, allowance: 3 } });
  });

  it.skipIf(skip)('never lets reads racing on one allowance slip past it', async () => {
    const other = await makeOperator(store.db, `racer-${dialect}@example.com`, clock(), 'sender');
    const otherId = (
      await store.db.selectFrom('operators').select('id').where('email', '=', other.email).executeTakeFirstOrThrow()
    ).id;
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        countPersonalReads(store.db, { operatorId: otherId, now: clock(), n: 1, allowance: 5, freshProof: false }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(5);
    expect(await personalReadsToday(store.db, otherId, clock())).toBe(5);
  });
});
