import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audienceReportSchema } from '../../../shared/admin/audience.ts';
import { auditPageSchema, type AuditAction } from '../../../shared/admin/audit-schema.ts';
import { referralsReportSchema, referrerDetailSchema } from '../../../shared/admin/referrals.ts';
import { adminApiPaths, withId } from '../../../shared/paths.ts';
import type { ReferralStatus } from '../../store/schema.ts';
import { codeAt, ConsoleClient, makeOperator, type TestOperator } from '../../test/admin-kit.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';

const MIN = 60_000;
const FARM_NETWORK = 'farm-network-key-0123456789abcdef';

describe.each(dialectCases)('the Referrals console endpoints ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let sender: TestOperator;
  let s: ConsoleClient;
  let v: ConsoleClient;
  const ids = { ada: '', bob: '', cy: '' };
  const invited: string[] = [];

  /** A person on the list, `at` minutes from now; confirmed unless said otherwise. */
  const person = async (email: string, at: number, confirmed = true) => {
    const now = new Date(t.clock().getTime() + at * MIN);
    const id = await insertSubscriber(store.db, email, { now, status: confirmed ? 'confirmed' : 'pending' });
    if (confirmed)
      await store.db.updateTable('subscribers').set({ confirmed_at: now.toISOString() }).where('id', '=', id).execute();
    return { id, at: now.toISOString() };
  };
  /** Someone signed up through `referrer`'s link, `at` minutes from now; confirmed unless still pending. */
  const invite = async (
    referrer: string,
    n: number,
    status: ReferralStatus,
    opts: { at: number; domain: string; network?: string },
  ) => {
    const p = await person(`friend${n}@${opts.domain}`, opts.at, status !== 'pending');
    invited.push(`friend${n}@${opts.domain}`);
    await store.db
      .insertInto('referral_attributions')
      .values({
        invited_id: p.id,
        referrer_id: referrer,
        network_key: opts.network ?? `network-${n}`,
        created_at: p.at,
        status,
        decided_at: status === 'pending' ? null : p.at,
        invited_domain: opts.domain,
      })
      .execute();
  };
  const lastAudit = async (action: AuditAction) => {
    const res = await s.get(`${adminApiPaths.audit}?action=${action}`);
    return auditPageSchema.parse(res.json()).entries;
  };
  const report = async (c: ConsoleClient) => {
    const res = await c.get(adminApiPaths.referrals);
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.body, report: referralsReportSchema.parse(res.json()) };
  };

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store });
    ids.ada = (await person('Ada.Lovelace@example.com', -600)).id;
    ids.bob = (await person('bob@example.org', -600)).id;
    ids.cy = (await person('cy@example.net', -600, false)).id;
    // Ada: two counted (ten minutes apart, so no burst), one pending, and one of each refusal the
    // issue's browser test makes: her own network, her own mailbox, a disposable domain.
    const domains = ['mail.example', 'post.example', 'inbox.example', 'home.example', 'example.com', 'yopmail.com'];
    const adas: ReferralStatus[] = ['counted', 'counted', 'pending', 'same_network', 'same_mailbox', 'disposable'];
    for (const [i, status] of adas.entries()) {
      await invite(ids.ada, i, status, { at: -500 + i * 10, domain: domains[i] ?? 'x.example' });
    }
    // Bob: one counted a day before, then six sign-ups in 30 seconds from one network and domain
    // (half of them at its subdomains: one registered domain all the same).
    await invite(ids.bob, 10, 'counted', { at: -24 * 60, domain: 'elsewhere.example' });
    for (let i = 0; i < 6; i++) {
      const domain = i % 2 === 0 ? 'farm.example' : `m${i}.farm.example`;
      await invite(ids.bob, 20 + i, 'pending', { at: -60 + i / 12, domain, network: FARM_NETWORK });
    }
    // Cy: one over the cap.
    await invite(ids.cy, 30, 'capped', { at: -30, domain: 'capped.example' });

    sender = await makeOperator(store.db, `ref-sender-${dialect}@example.com`, t.clock(), 'sender');
    const viewer = await makeOperator(store.db, `ref-viewer-${dialect}@example.com`, t.clock(), 'viewer');
    s = new ConsoleClient(t.app);
    await s.signIn(sender, t.clock());
    v = new ConsoleClient(t.app);
    await v.signIn(viewer, t.clock());
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });

  it.skipIf(skip)('gives a viewer counts only: no address, masked or not, and no referrer', async () => {
    const { body, report: r } = await report(v);
    expect(r.access).toBe('counts');
    expect(r.topReferrers).toBeNull();
    expect(r.clusters).toBeNull();
    expect(r.totals).toEqual({ referrers: 3, invites: 14, counted: 3, pending: 7, refused: 4 });
    expect(r.clusterCounts).toEqual({ network: 1, domain: 1, burst: 1 });
    for (const secret of ['•••', '@', 'farm.example', ids.ada, ids.bob, ids.cy]) expect(body).not.toContain(secret);
    // Nor may they open a referrer or export.
    expect((await v.post(withId(adminApiPaths.referrerDetails, ids.ada))).statusCode).toBe(403);
    expect((await v.post(adminApiPaths.referrersCsv, { top: 5 })).statusCode).toBe(403);
  });

  it.skipIf(skip)('counts the refusals by reason, as counts and shares of the decided invites', async () => {
    const { report: r } = await report(s);
    expect(r.refusals).toEqual([
      { reason: 'same_network', count: 1, share: 1 / 7 },
      { reason: 'same_mailbox', count: 1, share: 1 / 7 },
      { reason: 'disposable', count: 1, share: 1 / 7 },
      { reason: 'one_domain', count: 0, share: 0 },
      { reason: 'capped', count: 1, share: 1 / 7 },
    ]);
    expect(r.refusedShare).toBeCloseTo(4 / 7);
    // The limits in force, which the view states (the test app runs with the defaults).
    expect(r.limits).toEqual({ perReferrerDaily: 20, perNetworkDaily: 3, perPrivateDomain: 5, ipv6Prefix: 48 });
  });

  it.skipIf(skip)('lists a sender the top referrers, masked, most confirmed first', async () => {
    const { body, report: r } = await report(s);
    expect(r.access).toBe('full');
    expect(r.topReferrers).toEqual([
      { id: ids.ada, maskedEmail: 'A•••@example.com', counted: 2, pending: 1, refused: 3 },
      { id: ids.bob, maskedEmail: 'b•••@example.org', counted: 1, pending: 6, refused: 0 },
      { id: ids.cy, maskedEmail: 'c•••@example.net', counted: 0, pending: 0, refused: 1 },
    ]);
    for (const secret of ['Ada.Lovelace', 'bob@', 'cy@', ...invited]) expect(body).not.toContain(secret);
    const top1 = referralsReportSchema.parse((await s.get(`${adminApiPaths.referrals}?top=1`)).json());
    expect(top1.topReferrers?.map((x) => x.id)).toEqual([ids.ada]);
  });

  it.skipIf(skip)('flags the farm: one network, one domain, a burst within seconds (not Ada’s spread)', async () => {
    const { body, report: r } = await report(s);
    const byKind = Object.fromEntries((r.clusters ?? []).map((c) => [c.kind, c]));
    expect(r.clusters).toHaveLength(3);
    expect(byKind.network).toMatchObject({ invites: 6, referrers: 1, counted: 0, referrerId: null });
    expect(byKind.network?.label).toMatch(/^net-[0-9a-f]{8}$/);
    expect(body).not.toContain(FARM_NETWORK);
    expect(byKind.domain).toMatchObject({ label: 'farm.example', invites: 6, referrerId: ids.bob });
    expect(byKind.burst).toMatchObject({ label: 'b•••@example.org', invites: 6, referrerId: ids.bob });
  });

  it.skipIf(skip)('opens one referrer for a sender, audited, with invites by day and never the invited', async () => {
    const res = await s.post(withId(adminApiPaths.referrerDetails, ids.ada));
    expect(res.statusCode, res.body).toBe(200);
    const ada = referrerDetailSchema.parse(res.json());
    expect(ada).toMatchObject({ email: 'Ada.Lovelace@example.com', status: 'confirmed' });
    expect(ada.counts).toMatchObject({ counted: 2, pending: 1, refused: 3 });
    expect(ada.counts.byReason).toContainEqual({ reason: 'same_mailbox', count: 1 });
    expect(ada.timeline.reduce((n, d) => n + d.counted + d.pending + d.refused, 0)).toBe(6);
    for (const secret of invited) expect(res.body).not.toContain(secret);
    const [entry] = await lastAudit('referrer.viewed');
    expect(entry).toMatchObject({ actor: sender.email, subject: ids.ada });
    expect(entry?.detail).toMatch(/personal records read today/);

    const gone = await s.post(withId(adminApiPaths.referrerDetails, 'no-such-person'));
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toMatch(/no such referrer/);
  });

  it.skipIf(skip)('exports the top N with addresses only with fresh proof, audited once with the count', async () => {
    t.clock.advance(6 * MIN);
    const stale = await s.post(adminApiPaths.referrersCsv, { top: 10 });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error.code).toBe('fresh_proof_required');
    expect(await lastAudit('referrers.exported')).toEqual([]);

    t.clock.advance(31_000);
    expect((await s.post(adminApiPaths.freshProof, { code: codeAt(sender, t.clock()) })).statusCode).toBe(200);
    const res = await s.post(adminApiPaths.referrersCsv, { top: 10 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="referrers-\d{8}-\d{4}\.csv"/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    // Cy has no counted invite: nothing to reward.
    expect(lines).toEqual([
      '"Rank","Email","Confirmed invites","Pending invites","Not counted","Their status"',
      '"1","Ada.Lovelace@example.com","2","1","3","confirmed"',
      '"2","bob@example.org","1","6","0","confirmed"',
    ]);
    const entries = await lastAudit('referrers.exported');
    expect(entries).toHaveLength(1);
    expect(entries[0]?.detail).toMatch(/^CSV; top 10 asked, 2 rows; /);
  });

  it.skipIf(skip)('answers bad input in words', async () => {
    const zero = await s.get(`${adminApiPaths.referrals}?top=0`);
    expect(zero.statusCode).toBe(400);
    expect(JSON.stringify(zero.json())).toMatch(/at least 1/);
    const words = await s.get(`${adminApiPaths.referrals}?top=many`);
    expect(words.statusCode).toBe(400);
    expect(JSON.stringify(words.json())).toMatch(/must be a number/);
    t.clock.advance(31_000);
    expect((await s.post(adminApiPaths.freshProof, { code: codeAt(sender, t.clock()) })).statusCode).toBe(200);
    const big = await s.post(adminApiPaths.referrersCsv, { top: 5000 });
    expect(big.statusCode).toBe(400);
    expect(JSON.stringify(big.json())).toMatch(/at most 1000/);
  });

  it.skipIf(skip)('gives the Audience report its sign-ups and conversion by invite', async () => {
    const res = await v.get(`${adminApiPaths.audience}?period=7d`);
    expect(res.statusCode, res.body).toBe(200);
    // 14 invited sign-ups (7 confirmed: 3 counted, 4 refused at confirmation; 7 pending); the
    // three referrers came without an invite (two confirmed).
    expect(audienceReportSchema.parse(res.json()).invites).toEqual({
      invited: { signups: 14, confirmed: 7, conversion: 0.5 },
      direct: { signups: 3, confirmed: 2, conversion: 2 / 3 },
    });
  });
});

describe('opening a referrer past the daily allowance of personal records', () => {
  it('asks for fresh proof, as opening a subscriber does, and records nothing until it is given', async () => {
    const t = await buildTestApp({ env: { PERSONAL_DATA_DAILY_ALLOWANCE: '0' } });
    try {
      const id = await insertSubscriber(t.store.db, 'solo@example.com', { now: t.clock(), status: 'confirmed' });
      const op = await makeOperator(t.store.db, 'allowance@example.com', t.clock(), 'sender');
      const c = new ConsoleClient(t.app);
      await c.signIn(op, t.clock());
      t.clock.advance(6 * MIN);
      const refused = await c.post(withId(adminApiPaths.referrerDetails, id));
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('fresh_proof_required');
      const viewed = () =>
        t.store.db.selectFrom('audit_log').select('subject').where('action', '=', 'referrer.viewed').execute();
      expect(await viewed()).toEqual([]);
      t.clock.advance(31_000);
      expect((await c.post(adminApiPaths.freshProof, { code: codeAt(op, t.clock()) })).statusCode).toBe(200);
      const res = await c.post(withId(adminApiPaths.referrerDetails, id));
      expect(res.statusCode, res.body).toBe(200);
      expect(referrerDetailSchema.parse(res.json()).reads).toEqual({ today: 1, allowance: 0 });
      expect(await viewed()).toEqual([{ subject: id }]);
    } finally {
      await t.close();
    }
  });
});
