import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthenticationOptions } from '../../../shared/admin/passkey-schema.ts';
import {
  codeFailedMessage,
  secondFactorSpentMessage,
  signInFailedMessage,
} from '../../../shared/admin/sign-in-schema.ts';
import { adminApiPaths } from '../../../shared/paths.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { PENDING_COOKIE, tokenHash } from './sessions.ts';
import {
  addPasskey,
  codeAt,
  ConsoleClient,
  failedSignIns,
  makeOperator,
  PASSWORD,
  type TestOperator,
  wrongCodeAt,
} from '../../test/admin-kit.ts';

describe.each(dialectCases)('console sign-in ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let op: TestOperator;
  let n = 0;
  const lines: string[] = [];
  const mailer = memoryMailer();

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    t = await buildTestApp({ store, env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' }, logStream, mailer });
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

  it('ends a pending sign-in at its fifth wrong answer: the sixth is refused even when right, and the password is asked again', async () => {
    const c = from('198.51.100.7');
    expect((await c.password(op.email)).statusCode).toBe(200);
    const pending = c.cookies.get(PENDING_COOKIE) ?? '';
    const wrong = wrongCodeAt(op, t.clock());
    for (let i = 0; i < 4; i++) expect((await c.code(wrong)).statusCode).toBe(400);
    const fifth = await c.code(wrong);
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json().error).toEqual({ code: 'unauthorized', message: secondFactorSpentMessage });
    expect(c.cookies.has(PENDING_COOKIE)).toBe(false);

    // Whoever keeps the cookie anyway, past the pair's back-off: the right code, a recovery code
    // and a passkey challenge are all refused, in words, and no session is made.
    t.clock.advance(30_000);
    for (const send of [
      () => c.code(codeAt(op, t.clock())),
      () => c.recovery(op.recoveryCodes[0] ?? ''),
      () => c.post(adminApiPaths.signInPasskeyOptions),
    ]) {
      c.cookies.set(PENDING_COOKIE, pending);
      const refused = await send();
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.message).toBe(secondFactorSpentMessage);
    }
    expect(c.cookies.has('__Host-dh_admin')).toBe(false);
    const failed = await failedSignIns(store.db, op.email);
    expect(failed).toHaveLength(5);
    expect(failed.filter((detail) => detail?.endsWith('the sign-in was stopped'))).toHaveLength(1);

    // The password step again, and the same code (never checked above) signs in.
    await c.signIn(op, t.clock());
    expect((await c.get(adminApiPaths.session)).statusCode).toBe(200);
  });

  it('checks at most five answers of one pending sign-in, even sent all at once', async () => {
    const c = from('198.51.100.9');
    await c.password(op.email);
    const wrong = wrongCodeAt(op, t.clock());
    const answers = await Promise.all(Array.from({ length: 12 }, () => c.code(wrong)));
    const statuses = answers.map((r) => r.statusCode);
    // Four wrong, the fifth ends it (401); the rest find it spent (401) or the pair backing off (429).
    expect(statuses.filter((s) => s === 400)).toHaveLength(4);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s !== 400 && s !== 401 && s !== 429)).toEqual([]);
    expect(await failedSignIns(store.db, op.email)).toHaveLength(5);
  });

  it('holds an operator’s authenticator codes after ten wrong ones from as many networks; a recovery code and a passkey still sign in', async () => {
    // The operator, earlier, added a passkey (fresh proof from the code they signed in with).
    const own = from('198.51.100.10');
    await own.signIn(op, t.clock());
    const key = await addPasskey(own, 'Phone');
    t.clock.advance(30_000);

    // Someone with the password tries one wrong code from each of ten IPv6 /64s (ten networks).
    const logged = lines.length;
    for (let i = 0; i < 10; i++) {
      const net = from(`2001:db8:${n}:${i}::1`);
      expect((await net.password(op.email)).statusCode).toBe(200);
      expect((await net.code(wrongCodeAt(op, t.clock()))).statusCode).toBe(400);
    }
    // The eleventh network, the right code: refused unread, in words beside the field.
    const late = from(`2001:db8:${n}:99::1`);
    expect((await late.password(op.email)).statusCode).toBe(200);
    const held = await late.code(codeAt(op, t.clock()));
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBe('3600');
    expect(held.json().error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^Codes from your authenticator app are paused for this account for 60 minutes/),
      fields: { code: expect.stringMatching(/recovery code or a passkey/) },
    });
    // The same pending sign-in, a recovery code: in (the held code used none of its tries), and
    // with fresh proof while codes are held, so an operator without a passkey can still export
    // and send (issue 38).
    const inByRecovery = await late.recovery(op.recoveryCodes[0] ?? '');
    expect(inByRecovery.statusCode, inByRecovery.body).toBe(200);
    expect(inByRecovery.json().freshProofUntil).not.toBeNull();
    expect((await late.get(adminApiPaths.session)).json().freshProofUntil).not.toBeNull();

    // A passkey signs in too, from yet another network.
    const viaPasskey = from(`2001:db8:${n}:98::1`);
    expect((await viaPasskey.password(op.email)).statusCode).toBe(200);
    const options = (await viaPasskey.post(adminApiPaths.signInPasskeyOptions)).json<AuthenticationOptions>();
    const inByPasskey = await viaPasskey.post(adminApiPaths.secondFactor, {
      method: 'passkey',
      response: key.authenticate(options),
    });
    expect(inByPasskey.statusCode, inByPasskey.body).toBe(200);

    // Fresh proof: the code is held there too (a stolen session could guess there), the passkey is not.
    const code = await own.post(adminApiPaths.freshProof, { code: codeAt(op, t.clock()) });
    expect(code.statusCode).toBe(429);
    expect(code.json().error.fields.code).toMatch(/confirm with a passkey/);
    const fresh = (await own.post(adminApiPaths.freshProofPasskeyOptions)).json<AuthenticationOptions>();
    const proof = await own.post(adminApiPaths.freshProofPasskey, { response: key.authenticate(fresh) });
    expect(proof.statusCode, proof.body).toBe(200);

    // One warn line (the operator by id; no address, no IP) and one audit row.
    const warned = lines.slice(logged).filter((l) => l.includes('many wrong authenticator codes'));
    expect(warned).toHaveLength(1);
    const operatorId = (
      await store.db.selectFrom('operators').select('id').where('email', '=', op.email).executeTakeFirstOrThrow()
    ).id;
    expect(JSON.parse(warned[0] ?? '{}')).toMatchObject({ level: 40, operator: operatorId, wrongCodes: 10 });
    expect(warned[0]).not.toContain(op.email);
    expect(warned[0]).not.toContain('2001:db8');
    const rows = await store.db
      .selectFrom('audit_log')
      .select(['subject', 'detail', 'via'])
      .where('action', '=', 'sign-in.codes-held')
      .where('subject', '=', op.email)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.detail).toMatch(
      /^10 wrong authenticator codes from any network, each within an hour of the one before: codes held/,
    );
    // Every owner is mailed (this operator is one): who, what to do, and nothing secret.
    await expect.poll(() => mailer.sent.filter((m) => m.to === op.email).length).toBe(1);
    const mail = mailer.sent.find((m) => m.to === op.email);
    expect(mail?.subject).toBe(`dh.example console: authenticator codes held for ${op.email}`);
    expect(mail?.text).toMatch(/someone else knows that password/);
    for (const secret of [op.secret, ...op.recoveryCodes, '2001:db8', PASSWORD])
      expect(mail?.text).not.toContain(secret);

    // An hour after the tenth wrong code, codes work again, and a recovery code is no fresh proof.
    t.clock.advance(3600_000);
    await from(`2001:db8:${n}:97::1`).signIn(op, t.clock());
    const paper = from(`2001:db8:${n}:96::1`);
    expect((await paper.password(op.email)).statusCode).toBe(200);
    const inByPaper = await paper.recovery(op.recoveryCodes[1] ?? '');
    expect(inByPaper.statusCode, inByPaper.body).toBe(200);
    expect(inByPaper.json().freshProofUntil).toBeNull();
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
