import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessionsReplySchema } from '../../../shared/admin/sessions-schema.ts';
import { adminApiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { codeAt, ConsoleClient, makeOperator, type TestOperator } from '../../test/admin-kit.ts';

const MIN = 60_000;

describe.each(dialectCases)('console sessions ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let op: TestOperator;
  let n = 0;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store });
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });
  beforeEach(async (ctx) => {
    if (skip) return ctx.skip();
    // One app per dialect (the machine is shared and busy), a new operator per test.
    op = await makeOperator(store.db, `sess${++n}-${dialect}@example.com`, t.clock());
  });

  async function signedIn(ua?: string) {
    const c = new ConsoleClient(t.app, ua ? { 'user-agent': ua } : {});
    await c.signIn(op, t.clock());
    return c;
  }
  const idleExpiry = async () =>
    (
      await store.db
        .selectFrom('operator_sessions as s')
        .innerJoin('operators as o', 'o.id', 's.operator_id')
        .select('s.idle_expires_at')
        .where('o.email', '=', op.email)
        .executeTakeFirstOrThrow()
    ).idle_expires_at;

  it('ends after 30 idle minutes; activity renews it only when under 5 minutes are left', async () => {
    const c = await signedIn();
    const first = await idleExpiry();
    t.clock.advance(10 * MIN);
    expect((await c.get(adminApiPaths.session)).statusCode).toBe(200);
    expect(await idleExpiry()).toBe(first); // 20 minutes left: not renewed (no write per request)
    t.clock.advance(16 * MIN);
    expect((await c.get(adminApiPaths.session)).statusCode).toBe(200);
    expect(await idleExpiry()).toBe(new Date(t.clock().getTime() + 30 * MIN).toISOString());
    t.clock.advance(30 * MIN);
    const dead = await c.get(adminApiPaths.session);
    expect(dead.statusCode).toBe(401);
    expect(dead.json().error.code).toBe('unauthorized');
    expect(c.cookies.has('__Host-dh_admin')).toBe(false);
  });

  it('ends after 30 minutes when its only traffic is polling: the live count, and any request marked background', async () => {
    const c = await signedIn();
    // A console left open on the Audience view: the live visitor count every minute.
    for (let minute = 1; minute < 30; minute++) {
      t.clock.advance(MIN);
      expect((await c.get(adminApiPaths.audienceLive)).statusCode, `minute ${minute}`).toBe(200);
    }
    t.clock.advance(MIN);
    expect((await c.get(adminApiPaths.audienceLive)).statusCode).toBe(401);

    // A broadcast's progress polled with the console's background mark: the same.
    const d = await signedIn();
    for (let minute = 1; minute < 30; minute++) {
      t.clock.advance(MIN);
      expect((await d.get(adminApiPaths.session, { 'x-dh-background': '1' })).statusCode, `minute ${minute}`).toBe(200);
    }
    t.clock.advance(MIN);
    expect((await d.get(adminApiPaths.session, { 'x-dh-background': '1' })).statusCode).toBe(401);
  });

  it("still renews on the operator's own requests, whatever the polling in between; the mark never extends anything", async () => {
    const c = await signedIn();
    t.clock.advance(26 * MIN);
    expect((await c.get(adminApiPaths.audienceLive)).statusCode).toBe(200);
    const unrenewed = await idleExpiry();
    // Any other value of the header is no mark: an operator's request, which renews.
    expect((await c.get(adminApiPaths.session, { 'x-dh-background': 'yes' })).statusCode).toBe(200);
    expect(await idleExpiry()).not.toBe(unrenewed);
    expect(await idleExpiry()).toBe(new Date(t.clock().getTime() + 30 * MIN).toISOString());
  });

  it('ends 12 hours after signing in, however active', async () => {
    const c = await signedIn();
    // Active every 26 minutes (inside the renewal window each time) until a minute before 12 hours.
    let elapsed = 0;
    while (elapsed + 26 < 12 * 60) {
      t.clock.advance(26 * MIN);
      elapsed += 26;
      expect((await c.get(adminApiPaths.session)).statusCode).toBe(200);
    }
    t.clock.advance((12 * 60 - 1 - elapsed) * MIN);
    expect((await c.get(adminApiPaths.session)).statusCode).toBe(200);
    t.clock.advance(MIN);
    expect((await c.get(adminApiPaths.session)).statusCode).toBe(401);
  });

  it('signs out: the session is gone from the store and its cookie no longer works', async () => {
    const c = await signedIn();
    const token = c.cookies.get('__Host-dh_admin') ?? '';
    expect((await c.post(adminApiPaths.signOut)).statusCode).toBe(200);
    expect(
      await store.db
        .selectFrom('operator_sessions')
        .selectAll()
        .where('operator_id', 'in', store.db.selectFrom('operators').select('id').where('email', '=', op.email))
        .execute(),
    ).toEqual([]);
    const replay = new ConsoleClient(t.app);
    replay.cookies.set('__Host-dh_admin', token);
    expect((await replay.get(adminApiPaths.session)).statusCode).toBe(401);
  });

  it("lists the operator's sessions by browser and system, never an address, and ends another one", async () => {
    const phone = await signedIn(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    );
    t.clock.advance(30_000);
    const desk = await signedIn();
    const list = await desk.get(adminApiPaths.sessions);
    expect(list.statusCode).toBe(200);
    const { sessions } = sessionsReplySchema.parse(list.json());
    expect(sessions.map((s) => [s.browser, s.current])).toEqual([
      ['Chrome on Linux', true],
      ['Safari on iOS', false],
    ]);
    expect(Object.keys(sessions[0] ?? {}).sort()).toEqual(['browser', 'createdAt', 'current', 'id', 'lastSeenAt']);
    const other = sessions.find((s) => !s.current)?.id ?? '';
    expect((await desk.post(adminApiPaths.endSession, { id: other })).json()).toEqual({ ended: 1, signedOut: false });
    expect((await phone.get(adminApiPaths.session)).statusCode).toBe(401);
    expect((await desk.get(adminApiPaths.session)).statusCode).toBe(200);
    // Another operator's session id ends nothing.
    const stranger = await makeOperator(store.db, `stranger${n}-${dialect}@example.com`, t.clock());
    const s = new ConsoleClient(t.app);
    await s.signIn(stranger, t.clock());
    const mine = sessionsReplySchema.parse((await desk.get(adminApiPaths.sessions)).json()).sessions[0]?.id ?? '';
    expect((await s.post(adminApiPaths.endSession, { id: mine })).json()).toEqual({ ended: 0, signedOut: false });
  });

  it('signs out everywhere only with fresh proof: a code in the last five minutes', async () => {
    const other = await signedIn();
    t.clock.advance(30_000);
    // Signed in with a recovery code: no fresh proof.
    const c = new ConsoleClient(t.app);
    await c.password(op.email);
    await c.recovery(op.recoveryCodes[1] ?? '');
    const refused = await c.post(adminApiPaths.endAllSessions);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('fresh_proof_required');

    expect((await c.post(adminApiPaths.freshProof, { code: '000000' })).statusCode).toBe(400);
    t.clock.advance(30_000);
    const proof = await c.post(adminApiPaths.freshProof, { code: codeAt(op, t.clock()) });
    expect(proof.statusCode).toBe(200);
    expect(proof.json().freshProofUntil).toBe(new Date(t.clock().getTime() + 5 * MIN).toISOString());

    t.clock.advance(5 * MIN + 1000);
    expect((await c.post(adminApiPaths.endAllSessions)).statusCode).toBe(403);
    await c.post(adminApiPaths.freshProof, { code: codeAt(op, t.clock()) });
    const ended = await c.post(adminApiPaths.endAllSessions);
    expect(ended.json()).toEqual({ ended: 2, signedOut: true });
    expect((await other.get(adminApiPaths.session)).statusCode).toBe(401);
    expect((await c.get(adminApiPaths.session)).statusCode).toBe(401);
    const actions = (
      await store.db.selectFrom('audit_log').select('action').where('actor', '=', op.email).execute()
    ).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['fresh-proof.failed', 'fresh-proof.given', 'sessions.ended-all']));
  });

  it('counts the sign-in code as fresh proof for five minutes', async () => {
    const c = await signedIn();
    expect((await c.get(adminApiPaths.session)).json().freshProofUntil).toBe(
      new Date(t.clock().getTime() + 5 * MIN).toISOString(),
    );
    expect((await c.post(adminApiPaths.endAllSessions)).statusCode).toBe(200);
  });
});
