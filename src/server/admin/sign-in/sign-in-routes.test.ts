import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codeFailedMessage, signInFailedMessage } from '../../../shared/admin/sign-in-schema.ts';
import { adminApiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { tokenHash } from './sessions.ts';
import { codeAt, ConsoleClient, makeOperator, PASSWORD, type TestOperator } from '../test-kit.ts';

describe.each(dialectCases)('console sign-in ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let op: TestOperator;
  let n = 0;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store, env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });
  beforeEach(async (ctx) => {
    if (skip) return ctx.skip();
    // One app per dialect (the machine is shared and busy); a new operator, and its own client
    // address, per test, so no test's back-off counts touch another's.
    op = await makeOperator(store.db, `op${++n}-${dialect}@example.com`, t.clock());
  });

  const from = (ip: string) => new ConsoleClient(t.app, { 'x-forwarded-for': ip });

  it('signs in with password then TOTP: a __Host- cookie, HttpOnly, Secure, SameSite=Strict, only its hash stored', async () => {
    const c = from('198.51.100.1');
    const first = await c.password(op.email.toUpperCase());
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ next: 'second-factor' });
    expect(c.cookies.has('__Host-dh_admin')).toBe(false);

    const second = await c.code(codeAt(op, t.clock()));
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ operator: { email: op.email }, recoveryCodesLeft: 10 });
    const header = [second.headers['set-cookie']].flat().find((h) => String(h).startsWith('__Host-dh_admin='));
    expect(header).toMatch(/; Path=\/(;|$)/);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; Secure/);
    expect(header).toMatch(/; SameSite=Strict/);
    expect(header).not.toMatch(/Domain=/i);
    const token = c.cookies.get('__Host-dh_admin') ?? '';
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);

    const rows = await store.db.selectFrom('operator_sessions').selectAll().execute();
    const mine = rows.filter((r) => r.token_hash === tokenHash(token));
    expect(mine).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(mine[0]?.browser).toBe('Chrome on Linux');

    const me = await c.get(adminApiPaths.session);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ operator: { email: op.email } });
    expect(me.headers['cache-control']).toBe('no-store');
  });

  it('answers a wrong password and an unknown address alike, and logs only the operator it was for', async () => {
    const c = from('198.51.100.2');
    const wrong = await c.password(op.email, 'not the password at all');
    const unknown = await c.password('nobody@example.com', PASSWORD);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.json().error.message).toBe(signInFailedMessage);
    const log = await store.db.selectFrom('audit_log').selectAll().where('action', '=', 'sign-in.failed').execute();
    expect(log.find((e) => e.subject === op.email)?.detail).toBe('wrong password');
    expect(log.some((e) => e.detail === 'unknown address' && e.subject === null)).toBe(true);
    expect(JSON.stringify(log)).not.toContain('nobody@example.com');
    expect(JSON.stringify(log)).not.toContain(PASSWORD);
  });

  it('accepts a code of the previous or next step, each step once, and never an older one', async () => {
    const now = t.clock();
    const c = from('198.51.100.3');
    await c.password(op.email);
    expect((await c.code(codeAt(op, new Date(now.getTime() - 60_000)))).statusCode).toBe(400);
    const previous = codeAt(op, new Date(now.getTime() - 30_000));
    expect((await c.code(previous)).statusCode).toBe(200);

    const again = from('198.51.100.3');
    await again.password(op.email);
    const reused = await again.code(previous);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.fields).toEqual({ code: codeFailedMessage });
    // The current step is later than the one used: accepted, once.
    expect((await again.code(codeAt(op, now))).statusCode).toBe(200);
    const third = from('198.51.100.3');
    await third.password(op.email);
    expect((await third.code(codeAt(op, now))).statusCode).toBe(400);
  });

  it('accepts each recovery code once, in any case and spacing; it is not fresh proof', async () => {
    const c = from('198.51.100.4');
    await c.password(op.email);
    const code = op.recoveryCodes[0] ?? '';
    const res = await c.recovery(` ${code.toUpperCase().replace('-', ' ')} `);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ freshProofUntil: null, recoveryCodesLeft: 9 });

    const d = from('198.51.100.4');
    await d.password(op.email);
    expect((await d.recovery(code)).statusCode).toBe(400);
    const log = await store.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('subject', '=', op.email)
      .execute();
    expect(log.some((e) => e.action === 'sign-in.succeeded' && e.detail?.includes('recovery code (9 left)'))).toBe(
      true,
    );
  });

  it('needs the password step first, and forgets it after five minutes', async () => {
    const c = from('198.51.100.5');
    expect((await c.code(codeAt(op, t.clock()))).statusCode).toBe(401);
    await c.password(op.email);
    t.clock.advance(5 * 60_000);
    const late = await c.code(codeAt(op, t.clock()));
    expect(late.statusCode).toBe(401);
    expect(late.json().error.message).toMatch(/timed out/);
  });

  it('gives a new session id at every sign-in and ends the one the browser had', async () => {
    const c = from('198.51.100.6');
    await c.signIn(op, t.clock());
    const before = c.cookies.get('__Host-dh_admin') ?? '';
    t.clock.advance(30_000);
    await c.signIn(op, t.clock());
    const after = c.cookies.get('__Host-dh_admin') ?? '';
    expect(after).not.toBe(before);
    const stale = await t.app.inject({
      method: 'GET',
      url: adminApiPaths.session,
      headers: { 'sec-fetch-site': 'same-origin', cookie: `__Host-dh_admin=${before}` },
    });
    expect(stale.statusCode).toBe(401);
  });

  it('refuses to sign in over plain http away from this machine (the Secure cookie would be dropped)', async () => {
    const plain = await buildTestApp({ store, env: { PUBLIC_URL: 'http://dh.example' } });
    try {
      const c = new ConsoleClient(plain.app, { host: 'dh.example' });
      const res = await c.password(op.email);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/HTTPS/);
      const local = new ConsoleClient(plain.app, { host: '127.0.0.1:3000' });
      expect((await local.password(op.email)).statusCode).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
