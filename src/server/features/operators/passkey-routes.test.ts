import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthenticationOptions, RegistrationOptions } from '../../../shared/admin/passkey-schema.ts';
import { adminApiPaths as p, withId } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { SoftwareAuthenticator } from '../../test/software-authenticator.ts';
import {
  addPasskey,
  codeAt,
  ConsoleClient,
  failedSignIns,
  makeOperator,
  passkeySite as site,
  type TestOperator,
} from '../../test/admin-kit.ts';

// Passkeys end to end through the real routes, with answers a software authenticator signs and
// @simplewebauthn/server checks in full, scoped to the test app's site (https://dh.example).

describe.each(dialectCases)('console passkeys ($label)', ({ dialect, skip }) => {
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
    op = await makeOperator(store.db, `pk${++n}-${dialect}@example.com`, t.clock());
  });

  // Each test its own client address, so no test's back-off touches another's.
  const client = () => new ConsoleClient(t.app, { 'x-forwarded-for': `203.0.113.${n}` });

  /** Signed in with a TOTP code (fresh proof for five minutes). */
  async function signedIn(): Promise<ConsoleClient> {
    const c = client();
    await c.signIn(op, t.clock());
    // The sign-in used this step's code: later codes come from the next steps.
    t.clock.advance(30_000);
    return c;
  }

  /** A new browser up to the second step: password accepted, pending cookie held. */
  async function afterPassword(): Promise<ConsoleClient> {
    const c = client();
    const res = await c.password(op.email);
    expect(res.statusCode).toBe(200);
    return c;
  }

  const passkeyStep = (c: ConsoleClient, response: unknown) => c.post(p.secondFactor, { method: 'passkey', response });
  const storedPasskeys = () =>
    store.db
      .selectFrom('operator_passkeys')
      .selectAll()
      .where('operator_id', 'in', (eb) => eb.selectFrom('operators').select('id').where('email', '=', op.email))
      .execute();

  it('adds a passkey only with fresh proof: a session without a recent code is asked for one first', async () => {
    const c = client();
    await c.password(op.email);
    // A recovery code signs in but is not fresh proof: like a stolen session, it cannot add a passkey.
    expect((await c.recovery(op.recoveryCodes[0] ?? '')).statusCode).toBe(200);
    const refused = await c.post(p.passkeyRegistrationOptions);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('fresh_proof_required');
    const key = new SoftwareAuthenticator(site);
    const direct = await c.post(p.passkeys, { name: 'Sneaky', response: key.register({ challenge: 'AAAA' }) });
    expect(direct.statusCode).toBe(403);
    expect(direct.json().error.code).toBe('fresh_proof_required');
    expect(await storedPasskeys()).toHaveLength(0);

    expect((await c.post(p.freshProof, { code: codeAt(op, t.clock()) })).statusCode).toBe(200);
    const options = await c.post(p.passkeyRegistrationOptions);
    expect(options.statusCode).toBe(200);
    const body = options.json<RegistrationOptions>();
    expect(body.rp.id).toBe('dh.example');
    expect(body.user.name).toBe(op.email);
    expect(body.authenticatorSelection?.userVerification).toBe('required');
    const added = await c.post(p.passkeys, { name: '  Ｗork   laptop ', response: key.register(body) });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().passkey).toMatchObject({ name: 'Work laptop', synced: false, lastUsedAt: null });

    const rows = await storedPasskeys();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ credential_id: key.id, name: 'Work laptop', transports: '["internal"]' });
    const log = await store.db.selectFrom('audit_log').selectAll().where('action', '=', 'passkey.added').execute();
    expect(log.find((e) => e.actor === op.email)?.detail).toBe('“Work laptop”');

    // Fresh proof lasts five minutes: after that, adding asks again.
    t.clock.advance(5 * 60_000 + 1);
    expect((await c.post(p.passkeyRegistrationOptions)).json().error.code).toBe('fresh_proof_required');
  });

  it('lists the passkeys to exclude, so one authenticator is not added twice', async () => {
    const c = await signedIn();
    const key = await addPasskey(c);
    const again = await c.post(p.passkeyRegistrationOptions);
    expect(again.json<RegistrationOptions>().excludeCredentials?.map((d) => d.id)).toEqual([key.id]);
    const list = await c.get(p.passkeys);
    expect(list.json().passkeys).toEqual([expect.objectContaining({ name: 'Work laptop' })]);
  });

  it('refuses, in words, an answer for another origin, another RP ID or another challenge, and keeps nothing', async () => {
    const c = await signedIn();
    const key = new SoftwareAuthenticator(site);
    const attempt = async (tamper: Parameters<SoftwareAuthenticator['register']>[1]) => {
      const options = (await c.post(p.passkeyRegistrationOptions)).json<RegistrationOptions>();
      const res = await c.post(p.passkeys, { name: 'Phished', response: key.register(options, tamper) });
      expect(res.statusCode).toBe(400);
      return res.json().error.message as string;
    };
    expect(await attempt({ origin: 'https://dh-example.evil' })).toBe(
      'The passkey answered for another site, not https://dh.example. Please use the console at its own address.',
    );
    expect(await attempt({ rpId: 'evil.example' })).toBe('That passkey belongs to another site, not dh.example.');
    expect(await attempt({ challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' })).toBe(
      'This passkey request has expired or was answered already. Please start again.',
    );
    expect(await attempt({ userVerified: false })).toMatch(/did not confirm it was you/);
    expect(await storedPasskeys()).toHaveLength(0);
  });

  it('takes each challenge once: the same answer sent again is refused, and one from another session never counts', async () => {
    const c = await signedIn();
    const key = new SoftwareAuthenticator(site);
    const options = (await c.post(p.passkeyRegistrationOptions)).json<RegistrationOptions>();
    const response = key.register(options);
    expect((await c.post(p.passkeys, { name: 'One', response })).statusCode).toBe(200);
    const replay = await c.post(p.passkeys, { name: 'Two', response });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toMatch(/expired or was answered already/);

    // A challenge issued to this session is not one another session of the same operator can answer.
    const other = client();
    await other.signIn(op, t.clock());
    const mine = (await c.post(p.passkeyRegistrationOptions)).json<RegistrationOptions>();
    const stolen = await other.post(p.passkeys, {
      name: 'Other',
      response: new SoftwareAuthenticator(site).register(mine),
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.message).toMatch(/expired or was answered already/);

    // And none lives past five minutes.
    const late = (await c.post(p.passkeyRegistrationOptions)).json<RegistrationOptions>();
    t.clock.advance(5 * 60_000);
    expect((await c.post(p.freshProof, { code: codeAt(op, t.clock()) })).statusCode).toBe(200);
    const expired = await c.post(p.passkeys, {
      name: 'Late',
      response: new SoftwareAuthenticator(site).register(late),
    });
    expect(expired.json().error.message).toMatch(/expired or was answered already/);
    expect(await storedPasskeys()).toHaveLength(1);
  });

  it('signs in with password then passkey, which is fresh proof, and moves the counter on', async () => {
    const key = await addPasskey(await signedIn(), 'Phone');
    const c = await afterPassword();
    const options = await c.post(p.signInPasskeyOptions);
    expect(options.statusCode).toBe(200);
    const body = options.json<AuthenticationOptions>();
    expect(body.allowCredentials?.map((d) => d.id)).toEqual([key.id]);
    expect(body.rpId).toBe('dh.example');

    const res = await passkeyStep(c, key.authenticate(body));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().operator.email).toBe(op.email);
    expect(res.json().freshProofUntil).not.toBeNull();
    expect(c.cookies.has('__Host-dh_admin')).toBe(true);
    // Fresh proof indeed: an action that needs it goes through without a code.
    expect((await c.post(p.passkeyRegistrationOptions)).statusCode).toBe(200);

    const [row] = await storedPasskeys();
    expect(Number(row?.counter)).toBe(1);
    expect(row?.last_used_at).toBe(t.clock().toISOString());
    const log = await store.db.selectFrom('audit_log').selectAll().where('subject', '=', op.email).execute();
    expect(log.find((e) => e.action === 'sign-in.succeeded' && e.detail?.includes('passkey'))?.detail).toBe(
      'Chrome on Linux, with the passkey “Phone”',
    );
    expect(log.find((e) => e.action === 'passkey.used')?.detail).toBe('“Phone”, to sign in');

    // The sign-in's challenge went with the pending sign-in: the same answer signs nobody in again.
    const again = await afterPassword();
    const replay = await passkeyStep(again, key.authenticate(body, { counter: key.counter + 1 }));
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toMatch(/expired or was answered already/);
  });

  it('refuses a removed passkey, a counter that goes backwards, and another operator’s passkey; each counts towards the back-off', async () => {
    const c = await signedIn();
    const key = await addPasskey(c, 'Old key');
    const second = await addPasskey(c, 'Second');

    // The counter going backwards means a copied key.
    let s = await afterPassword();
    let options = (await s.post(p.signInPasskeyOptions)).json<AuthenticationOptions>();
    expect((await passkeyStep(s, key.authenticate(options))).statusCode).toBe(200);
    s = await afterPassword();
    options = (await s.post(p.signInPasskeyOptions)).json<AuthenticationOptions>();
    const cloned = await passkeyStep(s, key.authenticate(options, { counter: 1 }));
    expect(cloned.statusCode).toBe(400);
    expect(cloned.json().error.message).toMatch(/use count went backwards/);

    // Removing asks for fresh proof, and then the passkey signs nobody in.
    const old = ((await c.get(p.passkeys)).json().passkeys as { id: string; name: string }[]).find(
      (k) => k.name === 'Old key',
    );
    t.clock.advance(6 * 60_000);
    expect((await c.post(withId(p.passkeyRemove, old?.id ?? ''))).json().error.code).toBe('fresh_proof_required');
    expect((await c.post(p.freshProof, { code: codeAt(op, t.clock()) })).statusCode).toBe(200);
    const removed = await c.post(withId(p.passkeyRemove, old?.id ?? ''));
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe('Removed the passkey “Old key”. It no longer signs you in.');
    s = await afterPassword();
    options = (await s.post(p.signInPasskeyOptions)).json<AuthenticationOptions>();
    expect(options.allowCredentials?.map((d) => d.id)).toEqual([second.id]);
    const gone = await passkeyStep(s, key.authenticate(options));
    expect(gone.statusCode).toBe(400);
    expect(gone.json().error.message).toMatch(/not one of yours here \(it may have been removed\)/);

    // Another operator's passkey is not this operator's second factor.
    const mallory = await makeOperator(store.db, `mallory${n}-${dialect}@example.com`, t.clock());
    const m = new ConsoleClient(t.app, { 'x-forwarded-for': `198.18.0.${n}` });
    await m.signIn(mallory, t.clock());
    const theirs = await addPasskey(m, 'Mallory');
    const foreign = await passkeyStep(s, theirs.authenticate(options));
    expect(foreign.statusCode).toBe(400);
    // …nor can Mallory rename or remove this operator's passkeys.
    const [mine] = (await c.get(p.passkeys)).json().passkeys as { id: string }[];
    expect((await m.post(withId(p.passkey, mine?.id ?? ''), { name: 'Mine now' })).statusCode).toBe(404);
    expect((await m.post(withId(p.passkeyRemove, mine?.id ?? ''))).statusCode).toBe(404);

    // The fresh proof above cleared the count; gone and foreign are two failures since: three
    // more and the address is refused for a while. The third is also this sign-in's fifth wrong
    // answer, which ends it (the password step again, and that is backing off).
    for (let i = 0; i < 2; i++) expect((await passkeyStep(s, theirs.authenticate(options))).statusCode).toBe(400);
    expect((await passkeyStep(s, theirs.authenticate(options))).statusCode).toBe(401);
    const blocked = await client().password(op.email);
    expect(blocked.statusCode).toBe(429);
    expect(await failedSignIns(store.db, op.email)).toEqual(
      expect.arrayContaining(['passkey refused: signature counter went backwards', 'passkey refused: not registered']),
    );
  });

  it('gives fresh proof with a passkey, and renames one', async () => {
    const c = await signedIn();
    const key = await addPasskey(c, 'Laptop');
    const [entry] = (await c.get(p.passkeys)).json().passkeys as { id: string }[];
    const renamed = await c.post(withId(p.passkey, entry?.id ?? ''), { name: 'Desk laptop' });
    expect(renamed.json().passkey.name).toBe('Desk laptop');
    expect((await c.post(withId(p.passkey, entry?.id ?? ''), { name: 'a\u202eb' })).statusCode).toBe(400);

    t.clock.advance(6 * 60_000);
    expect((await c.post(p.passkeyRegistrationOptions)).json().error.code).toBe('fresh_proof_required');
    const options = await c.post(p.freshProofPasskeyOptions);
    expect(options.statusCode).toBe(200);
    const wrongSite = await c.post(p.freshProofPasskey, {
      response: key.authenticate(options.json<AuthenticationOptions>(), { origin: 'https://evil.example' }),
    });
    expect(wrongSite.statusCode).toBe(400);
    const next = (await c.post(p.freshProofPasskeyOptions)).json<AuthenticationOptions>();
    const proof = await c.post(p.freshProofPasskey, { response: key.authenticate(next) });
    expect(proof.statusCode, proof.body).toBe(200);
    expect(Date.parse(proof.json().freshProofUntil)).toBe(t.clock().getTime() + 5 * 60_000);
    expect((await c.post(p.passkeyRegistrationOptions)).statusCode).toBe(200);
    const log = await store.db.selectFrom('audit_log').selectAll().where('actor', '=', op.email).execute();
    expect(log.map((e) => [e.action, e.detail])).toEqual(
      expect.arrayContaining([
        ['passkey.renamed', '“Laptop” → “Desk laptop”'],
        ['fresh-proof.failed', 'passkey refused: wrong origin'],
        ['fresh-proof.given', 'with the passkey “Desk laptop”'],
        ['passkey.used', '“Desk laptop”, as fresh proof'],
      ]),
    );
  });

  it('says so when the operator has no passkey yet, or the sign-in has timed out', async () => {
    const c = await afterPassword();
    const none = await c.post(p.signInPasskeyOptions);
    expect(none.statusCode).toBe(404);
    expect(none.json().error.message).toBe('You have no passkey yet. Please use a code from your authenticator app.');
    const fresh = client();
    const timedOut = await fresh.post(p.signInPasskeyOptions);
    expect(timedOut.statusCode).toBe(401);
  });
});

describe('console passkeys where PUBLIC_URL is an IP address', () => {
  it('explains that passkeys need a domain name', async () => {
    const t = await buildTestApp({ env: { PUBLIC_URL: 'https://192.0.2.10' } });
    try {
      const op = await makeOperator(t.store.db, 'ip@example.com', t.clock());
      const c = new ConsoleClient(t.app);
      await c.signIn(op, t.clock());
      const res = await c.post(p.passkeyRegistrationOptions);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/Passkeys need the console at a domain name/);
    } finally {
      await t.close();
    }
  });
});
