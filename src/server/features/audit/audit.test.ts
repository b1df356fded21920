import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPageSchema } from '../../../shared/admin/audit-schema.ts';
import { adminApiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { recordAudit } from './audit.ts';
import { ConsoleClient, makeOperator, type TestOperator } from '../../test/admin-kit.ts';

describe.each(dialectCases)('the audit log ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let op: TestOperator;
  let c: ConsoleClient;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store });
    op = await makeOperator(store.db, `audit-${dialect}@example.com`, t.clock());
    // 120 entries over three days, two operators, two actions.
    for (let i = 0; i < 120; i++) {
      const at = new Date(Date.parse('2026-11-18T00:00:00.000Z') + i * 36 * 60_000);
      await recordAudit(
        store.db,
        at,
        { email: i % 2 ? op.email : 'other@example.com', via: 'console' },
        { action: i % 3 ? 'sign-out' : 'session.ended' },
      );
    }
    c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });

  const page = async (query: Record<string, string>) => {
    const res = await c.get(`${adminApiPaths.audit}?${new URLSearchParams(query).toString()}`);
    expect(res.statusCode, res.body).toBe(200);
    return auditPageSchema.parse(res.json());
  };

  it.skipIf(skip)('pages newest first with a cursor, every entry once', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const p = await page({ limit: '50', ...(cursor ? { cursor } : {}) });
      seen.push(...p.entries.map((e) => e.at));
      cursor = p.nextCursor;
      pages++;
    }
    expect(pages).toBe(3);
    // 120 seeded, plus this sign-in.
    expect(seen).toHaveLength(121);
    expect(new Set(seen).size).toBe(121);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it.skipIf(skip)('filters by operator, action and days', async () => {
    const mine = await page({ actor: op.email, action: 'session.ended', limit: '200' });
    expect(mine.entries.length).toBeGreaterThan(0);
    expect(mine.entries.every((e) => e.actor === op.email && e.action === 'session.ended')).toBe(true);
    const day = await page({ from: '2026-11-19', to: '2026-11-19', limit: '200' });
    expect(day.entries).toHaveLength(40);
    expect(day.entries.every((e) => e.at.startsWith('2026-11-19'))).toBe(true);
    expect(mine.actors).toContain(op.email);
  });

  it.skipIf(skip)('refuses a bad filter in words', async () => {
    const res = await c.get(`${adminApiPaths.audit}?from=yesterday`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.from).toMatch(/2026-11-22/);
  });

  it.skipIf(skip)('is append-only in the database: UPDATE and DELETE are refused', async () => {
    await expect(sql`UPDATE audit_log SET action = 'x'`.execute(store.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log`.execute(store.db)).rejects.toThrow(/append-only/);
  });
});

it('has no UPDATE or DELETE of the audit log anywhere in the code', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts') && !full.includes('migrations')) {
        if (/(updateTable|deleteFrom)\(\s*['"]audit_log/.test(readFileSync(full, 'utf8'))) offenders.push(full);
      }
    }
  };
  walk(root);
  expect(offenders).toEqual([]);
});
