import { locales } from '../../../shared/locales.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPageSchema, type AuditAction, type AuditEntry } from '../../../shared/admin/audit-schema.ts';
import {
  subscriberDataExportSchema,
  subscriberDetailSchema,
  subscriberListReplySchema,
} from '../../../shared/admin/subscribers.ts';
import { adminApiPaths, subscriberApiPath } from '../../../shared/paths.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { unspokenLocale } from '../../test/locales-kit.ts';
import { postSignupJson, visitPage } from '../../test/visitor.ts';
import { codeAt, ConsoleClient, makeOperator, type TestOperator } from '../../test/admin-kit.ts';

const MIN = 60_000;

describe.each(dialectCases)('the Subscribers endpoints ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let op: TestOperator;
  let c: ConsoleClient;
  const ids = { ada: '', xss: '', bob: '' };

  /** A fresh authenticator code (a code is accepted once, so the clock moves to the next one). */
  const freshProof = async () => {
    t.clock.advance(31_000);
    const res = await c.post(adminApiPaths.freshProof, { code: codeAt(op, t.clock()) });
    expect(res.statusCode, res.body).toBe(200);
  };
  // The test clock stands still between steps, so entries share a time: ask for the action.
  const lastAudit = async (action: AuditAction): Promise<AuditEntry | undefined> => {
    const res = await c.get(`${adminApiPaths.audit}?limit=1&action=${action}`);
    return auditPageSchema.parse(res.json()).entries[0];
  };
  const list = async (query: Record<string, string>) => {
    const res = await c.get(`${adminApiPaths.subscribers}?${new URLSearchParams(query).toString()}`);
    expect(res.statusCode, res.body).toBe(200);
    return subscriberListReplySchema.parse(res.json());
  };
  const outboxRows = async (id: string) =>
    (await store.db.selectFrom('outbox').select('id').where('subscriber_id', '=', id).execute()).length;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store, mailer: memoryMailer() });
    // Three people through the public form, a minute apart: the console sees what visitors made.
    let visitor = await visitPage(t.app);
    for (const [key, name, email] of [
      ['ada', 'Ada Lovelace', 'ada@example.com'],
      ['xss', '<img src=x onerror=alert(1)>', 'mallory@example.net'],
      ['bob', '=SUM(A1:A9)', 'bob@example.org'],
    ] as const) {
      t.clock.advance(MIN);
      const res = await postSignupJson(t.app, visitor, { name, email, comment: 'gm' });
      expect(res.statusCode, res.body).toBe(200);
      visitor = await visitPage(t.app, visitor);
      const row = await store.db
        .selectFrom('subscribers')
        .select('id')
        .where('email_key', '=', email)
        .executeTakeFirstOrThrow();
      ids[key] = row.id;
    }
    await store.db
      .updateTable('subscribers')
      .set({ status: 'confirmed', confirmed_at: t.clock().toISOString() })
      .where('id', '=', ids.bob)
      .execute();
    op = await makeOperator(store.db, `subs-${dialect}@example.com`, t.clock());
    c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });

  it.skipIf(skip)(
    'lists newest first, masked, searches, filters by status, sorts and pages with a cursor',
    async () => {
      const all = await list({});
      expect(all.items.map((i) => i.maskedEmail)).toEqual(['b•••@example.org', 'm•••@example.net', 'a•••@example.com']);
      // No address, name, city or comment in the list: those are read one person at a time.
      for (const secret of [
        'bob@example.org',
        'mallory@example.net',
        'ada@example.com',
        'Ada Lovelace',
        'onerror',
        'gm',
        'city',
      ]) {
        expect(JSON.stringify(all)).not.toContain(secret);
      }
      expect((await list({ sort: 'oldest' })).items[0]?.id).toBe(ids.ada);
      // Searching by an address the operator already knows still finds the person, masked.
      expect((await list({ q: 'ADA@example.com' })).items.map((i) => [i.id, i.maskedEmail])).toEqual([
        [ids.ada, 'a•••@example.com'],
      ]);
      expect((await list({ q: 'LOVELACE' })).items.map((i) => i.id)).toEqual([ids.ada]);
      // Two characters: the start of the address only ("bo" is in no other address's start).
      expect((await list({ q: 'bo' })).items.map((i) => i.id)).toEqual([ids.bob]);
      expect((await list({ status: 'confirmed' })).items.map((i) => i.id)).toEqual([ids.bob]);
      const first = await list({ limit: '2' });
      expect(first.items).toHaveLength(2);
      expect(first.nextCursor).not.toBeNull();
      const second = await list({ limit: '2', cursor: first.nextCursor ?? '' });
      expect(second.items.map((i) => i.id)).toEqual([ids.ada]);
      expect(second.nextCursor).toBeNull();
    },
  );

  it.skipIf(skip)('answers bad list queries in words', async () => {
    const forged = await c.get(`${adminApiPaths.subscribers}?cursor=not-a-cursor`);
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.message).toMatch(/page link/);
    const first = await list({ limit: '1' });
    const otherSort = await c.get(`${adminApiPaths.subscribers}?sort=oldest&cursor=${first.nextCursor ?? ''}`);
    expect(otherSort.statusCode).toBe(400);
    expect(otherSort.json().error.message).toMatch(/other sort order/);
    const status = await c.get(`${adminApiPaths.subscribers}?status=deleted&limit=0`);
    expect(status.statusCode).toBe(400);
    expect(status.json().error.fields).toMatchObject({
      status: expect.stringMatching(/pending, confirmed or unsubscribed/),
      limit: expect.stringMatching(/at least 1/),
    });
  });

  it.skipIf(skip)(
    'shows one person with consent, place and emails on purpose (a POST, audited); 404 for nobody',
    async () => {
      expect((await c.get(subscriberApiPath(adminApiPaths.subscriberDetails, ids.ada))).statusCode).toBe(404);
      const res = await c.post(subscriberApiPath(adminApiPaths.subscriberDetails, ids.ada));
      expect(res.statusCode).toBe(200);
      const detail = subscriberDetailSchema.parse(res.json());
      expect(detail).toMatchObject({
        name: 'Ada Lovelace',
        status: 'pending',
        consent: { page: '/' },
        resend: { allowed: false },
      });
      expect(detail.consent.text).toBeTruthy();
      expect(detail.emails).toHaveLength(1);
      expect(detail.email).toBe('ada@example.com');
      expect(JSON.stringify(detail)).not.toMatch(/token/i);
      const viewed = await lastAudit('subscriber.viewed');
      expect(viewed).toMatchObject({
        actor: op.email,
        subject: ids.ada,
        detail: expect.stringMatching(/^\d+ of 200 personal records read today$/),
      });
      expect(JSON.stringify(viewed)).not.toContain('ada@example.com');
      const nobody = await c.post(subscriberApiPath(adminApiPaths.subscriberDetails, 'no-such-id'));
      expect(nobody.statusCode).toBe(404);
      expect(nobody.json().error.message).toMatch(/no such subscriber/);
    },
  );

  it.skipIf(skip)('resends a confirmation after the cool-down only, queues one email and audits it', async () => {
    const url = subscriberApiPath(adminApiPaths.subscriberResend, ids.xss);
    const early = await c.post(url);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toMatch(/less than 15 minutes ago; try again after/);
    expect(await outboxRows(ids.xss)).toBe(1);
    t.clock.advance(15 * MIN);
    const ok = await c.post(url);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ done: true, message: expect.stringMatching(/on its way/) });
    expect(await outboxRows(ids.xss)).toBe(2);
    expect(await lastAudit('subscriber.confirmation-resent')).toMatchObject({ actor: op.email, subject: ids.xss });
    const confirmed = await c.post(subscriberApiPath(adminApiPaths.subscriberResend, ids.bob));
    expect(confirmed.statusCode).toBe(409);
    expect(confirmed.json().error.message).toMatch(/already confirmed/);
    // The session was idle for 15 minutes of test time; sign in again for what follows.
    await c.signIn(op, t.clock());
  });

  it.skipIf(skip)('exports one person as JSON only with fresh proof, and audits it', async () => {
    const url = subscriberApiPath(adminApiPaths.subscriberExport, ids.ada);
    t.clock.advance(6 * MIN);
    const stale = await c.post(url);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error.code).toBe('fresh_proof_required');
    await freshProof();
    const res = await c.post(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="subscriber-[\d-]+\.json"$/);
    expect(subscriberDataExportSchema.parse(res.json()).person).toMatchObject({
      email: 'ada@example.com',
      comment: 'gm',
    });
    const entry = await lastAudit('subscriber.exported');
    expect(entry).toMatchObject({ actor: op.email, subject: ids.ada });
    expect(JSON.stringify(entry)).not.toContain('ada@example.com');
  });

  it.skipIf(skip)(
    'shows each subscriber’s language, filters the list and the CSV by it, and refuses a language it does not know',
    async () => {
      await store.db.updateTable('subscribers').set({ locale: 'es' }).where('id', '=', ids.ada).execute();
      try {
        const all = await list({});
        expect(Object.fromEntries(all.items.map((i) => [i.id, i.locale]))).toEqual({
          [ids.ada]: 'es',
          [ids.xss]: 'en',
          [ids.bob]: 'en',
        });
        expect((await list({ locale: 'es' })).items.map((i) => i.id)).toEqual([ids.ada]);
        expect((await list({ locale: 'en', sort: 'oldest' })).items.map((i) => i.id)).toEqual([ids.xss, ids.bob]);
        expect((await list({ locale: 'ar' })).items).toEqual([]);
        const bad = await c.get(`${adminApiPaths.subscribers}?locale=${unspokenLocale}`);
        expect(bad.statusCode).toBe(400);
        expect(bad.json().error.fields.locale).toBe(`The language must be one of ${locales.join(', ')}.`);

        await freshProof();
        const csv = await c.post(adminApiPaths.subscribersCsv, { locale: 'es' });
        expect(csv.statusCode, csv.body).toBe(200);
        const lines = csv.body
          .replace(/^\uFEFF/, '')
          .split('\r\n')
          .filter(Boolean);
        // The language and the invites in their places; a field the sign-up form gains comes after them.
        expect(lines[0]).toMatch(/,"Comment","Language","Confirmed invites"(,|$)/);
        expect(lines).toHaveLength(2);
        expect(lines[1]).toMatch(/^"ada@example\.com",.*,"es","0"(,|$)/);
        expect(await lastAudit('subscribers.exported')).toMatchObject({ detail: 'CSV; every status; locale es' });
      } finally {
        await store.db.updateTable('subscribers').set({ locale: 'en' }).where('id', '=', ids.ada).execute();
      }
    },
  );

  it.skipIf(skip)(
    'streams the CSV with fresh proof: BOM, header, formulas neutralised, attachment, audited',
    async () => {
      t.clock.advance(6 * MIN);
      const stale = await c.post(adminApiPaths.subscribersCsv, {});
      expect(stale.json().error.code).toBe('fresh_proof_required');
      await freshProof();
      const res = await c.post(adminApiPaths.subscribersCsv, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="subscribers-[\d-]+\.csv"$/);
      const bytes = res.rawPayload;
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toMatch(/^"email","name","status"/i);
      expect(lines.filter(Boolean)).toHaveLength(4);
      expect(res.body).toContain(`,"'=SUM(A1:A9)",`);
      expect(await lastAudit('subscribers.exported')).toMatchObject({ actor: op.email, detail: 'CSV; every status' });
      // The rows handed out are counted once the stream ends, and audited with the count.
      await expect
        .poll(async () => (await lastAudit('subscribers.export-counted'))?.detail)
        .toMatch(/^3 rows; \d+ of 200 personal records read today$/);
      t.clock.advance(1_000);
      const filtered = await c.post(adminApiPaths.subscribersCsv, { status: 'confirmed', q: 'bob' });
      expect(filtered.body.split('\r\n').filter(Boolean)).toHaveLength(2);
      expect(await lastAudit('subscribers.exported')).toMatchObject({
        detail: 'CSV; status confirmed; filtered by a search',
      });
      const bad = await c.post(adminApiPaths.subscribersCsv, { status: 'everyone' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.status).toMatch(/pending, confirmed or unsubscribed/);
    },
  );

  it.skipIf(skip)('erases only when the address is typed back, with fresh proof; totals stay; audited', async () => {
    const url = subscriberApiPath(adminApiPaths.subscriberErase, ids.xss);
    const totalBefore = await store.db
      .selectFrom('daily_signups')
      .select((eb) => eb.fn.sum<number>('signups').as('n'))
      .executeTakeFirstOrThrow();
    t.clock.advance(6 * MIN);
    expect((await c.post(url, { confirmEmail: 'mallory@example.net' })).json().error.code).toBe('fresh_proof_required');
    await freshProof();
    const wrong = await c.post(url, { confirmEmail: 'ada@example.com' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.confirmEmail).toMatch(/not this person’s email address/);
    const missing = await c.post(url, {});
    expect(missing.statusCode).toBe(400);
    expect((await list({})).items.map((i) => i.id)).toContain(ids.xss);

    const ok = await c.post(url, { confirmEmail: '  MALLORY@example.net ' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await list({})).items.map((i) => i.id)).not.toContain(ids.xss);
    expect(await outboxRows(ids.xss)).toBe(0);
    const totalAfter = await store.db
      .selectFrom('daily_signups')
      .select((eb) => eb.fn.sum<number>('signups').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(totalAfter.n)).toBe(Number(totalBefore.n));
    const entry = await lastAudit('subscriber.erased');
    expect(entry).toMatchObject({ actor: op.email, subject: ids.xss, detail: 'was pending' });
    expect(JSON.stringify(entry)).not.toContain('mallory');
    expect((await c.post(url, { confirmEmail: 'mallory@example.net' })).statusCode).toBe(404);
  });
});
