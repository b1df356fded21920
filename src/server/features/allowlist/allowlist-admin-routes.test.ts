import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import { allowlistOverviewSchema } from '../../../shared/admin/allowlist.ts';
import { auditPageSchema } from '../../../shared/admin/audit-schema.ts';
import { apiErrorSchema } from '../../../shared/api-error.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { adminApiPaths, apiPaths } from '../../../shared/paths.ts';
import { signupSchema } from '../../../shared/signup-schema.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { testAccount } from '../../test/test-account.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { visitPage } from '../../test/visitor.ts';
import { signupBatchWith } from '../signups/index.ts';
import { ConsoleClient, makeOperator } from '../../test/admin-kit.ts';

const content = parseSiteContent({ ...siteContent, wallet: { mode: 'allowlist', chainId: 1 } });

describe.each(dialectCases)('the allowlist in the console ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let alice: ConsoleClient;
  let bob: ConsoleClient;
  let viewer: ConsoleClient;
  const accounts = [testAccount(), testAccount(), testAccount()];

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store, content });
    const at = t.clock().toISOString();
    await store.db
      .insertInto('allowlist_entries')
      .values(accounts.map((a, i) => ({ address: a.address, joined_at: at.replace('21T', `2${i}T`), country: 'DE' })))
      .execute();
    // The middle wallet's link was confirmed by its email's owner; the newest one's is asked and
    // not yet confirmed (an unexpired request); the oldest has none (issue 20, migration 0024).
    const signUp = (email: string) =>
      store.db
        .transaction()
        .execute((trx) =>
          signupBatchWith().run(trx, [
            { input: signupSchema.parse({ name: 'Ada', email }), meta: { now: t.clock(), page: '/' } },
          ]),
        );
    const [confirmed] = await signUp('linked@example.com');
    const [pending] = await signUp('pending@example.com');
    if (!confirmed || !pending) throw new Error('no sign-up');
    await store.db
      .updateTable('subscribers')
      .set({ status: 'confirmed' })
      .where('id', '=', confirmed.subscriberId)
      .execute();
    await store.db
      .updateTable('allowlist_entries')
      .set({ subscriber_id: confirmed.subscriberId, email_linked_at: at })
      .where('address', '=', accounts[1]?.address ?? '')
      .execute();
    await store.db
      .insertInto('allowlist_link_requests')
      .values({
        address: accounts[2]?.address ?? '',
        subscriber_id: pending.subscriberId,
        outbox_id: 'mail-1',
        asked_at: at,
        expires_at: new Date(t.clock().getTime() + 7 * 24 * 60 * 60_000).toISOString(),
        token_hash: null,
      })
      .execute();
    alice = new ConsoleClient(t.app);
    bob = new ConsoleClient(t.app);
    viewer = new ConsoleClient(t.app);
    await alice.signIn(await makeOperator(store.db, 'alice@dh.example', t.clock(), 'sender'), t.clock());
    await bob.signIn(await makeOperator(store.db, 'bob@dh.example', t.clock(), 'sender'), t.clock());
    await viewer.signIn(await makeOperator(store.db, 'vera@dh.example', t.clock(), 'viewer'), t.clock());
  });
  afterAll(async () => {
    if (skip) return;
    await t.close();
    await store.destroy();
  });

  const overview = async (query = '') => {
    const res = await alice.get(`${adminApiPaths.allowlist}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return allowlistOverviewSchema.parse(res.json());
  };
  const auditActions = async () =>
    auditPageSchema.parse((await alice.get(adminApiPaths.audit)).json()).entries.map((e) => e.action);

  it.skipIf(skip)(
    'counts by day, searches by any case of an address, lists newest first; a viewer reads none of it',
    async () => {
      const all = await overview();
      expect(all.total).toBe(3);
      expect(all.byDay).toEqual([
        { day: '2026-11-20', joined: 1 },
        { day: '2026-11-21', joined: 1 },
        { day: '2026-11-22', joined: 1 },
      ]);
      expect(all.entries.map((e) => e.address)).toEqual([...accounts].reverse().map((a) => a.address));
      // Linked only once confirmed; the address is never in the answer.
      expect(all.entries.map((e) => e.email)).toEqual(['pending', 'linked', 'none']);
      expect(JSON.stringify(all)).not.toContain('@example.com');
      const piece = accounts[1]?.address.slice(10, 20).toUpperCase() ?? '';
      expect((await overview(`?search=${piece}`)).entries.map((e) => e.address)).toEqual([accounts[1]?.address]);
      expect((await viewer.get(adminApiPaths.allowlist)).statusCode).toBe(403);
      const bad = await alice.get(`${adminApiPaths.allowlist}?search=zz%25`);
      expect(bad.statusCode).toBe(400);
    },
  );

  it.skipIf(skip)(
    'a freeze needs a second operator: asked by one, approved by another, audited, root shown',
    async () => {
      const asked = await alice.post(adminApiPaths.allowlistFreeze, { keepOpen: false });
      expect(asked.statusCode, asked.body).toBe(200);
      expect(asked.json()).toMatchObject({ snapshot: null });
      expect((await overview()).freezeRequest).toMatchObject({ requestedBy: 'alice@dh.example', keepOpen: false });

      const own = await alice.post(adminApiPaths.allowlistFreezeApprove, {});
      expect(own.statusCode).toBe(409);
      expect(apiErrorSchema.parse(own.json()).error.message).toContain('a second operator approves it');

      const approved = await bob.post(adminApiPaths.allowlistFreezeApprove, {});
      expect(approved.statusCode, approved.body).toBe(200);
      const { snapshot } = approved.json<{ snapshot: { root: string; entries: number } }>();
      expect(snapshot).toMatchObject({ entries: 3, requestedBy: 'alice@dh.example', approvedBy: 'bob@dh.example' });
      const after = await overview();
      expect(after.snapshots.map((s) => s.root)).toEqual([snapshot.root]);
      expect(after.registration).toBe('closed');
      expect(after.freezeRequest).toBeNull();
      expect(await auditActions()).toEqual(expect.arrayContaining(['allowlist.freeze-requested', 'allowlist.frozen']));
      // Nothing left to approve.
      expect((await bob.post(adminApiPaths.allowlistFreezeApprove, {})).statusCode).toBe(409);
    },
  );

  it.skipIf(skip)(
    'closed registration refuses joining in words; reopening (audited) lets visitors join again',
    async () => {
      const visitor = await visitPage(t.app);
      t.clock.advance(5_000);
      const ask = () =>
        t.app.inject({
          method: 'POST',
          url: apiPaths.allowlistChallenge,
          headers: {
            'content-type': 'application/json',
            'sec-fetch-site': 'same-origin',
            cookie: visitor.cookie,
            'x-xsrf-token': visitor.xsrf,
          },
          payload: JSON.stringify({ address: testAccount().address, purpose: 'join' }),
        });
      const closed = await ask();
      expect(closed.statusCode).toBe(409);
      expect(apiErrorSchema.parse(closed.json()).error.message).toBe(walletRefusals.closed);
      expect((await alice.post(adminApiPaths.allowlistReopen, {})).statusCode).toBe(200);
      expect((await ask()).statusCode).toBe(200);
      expect(await auditActions()).toContain('allowlist.reopened');
    },
  );

  it.skipIf(skip)(
    'removes an entry (audited, once); the CSV needs fresh proof and holds address, time, country, whether an email is linked and the terms accepted',
    async () => {
      const gone = accounts[0]?.address ?? '';
      const removed = await alice.post(adminApiPaths.allowlistRemove, { address: gone.toLowerCase() });
      expect(removed.statusCode, removed.body).toBe(200);
      expect((await alice.post(adminApiPaths.allowlistRemove, { address: gone })).statusCode).toBe(404);
      expect((await overview()).total).toBe(2);
      expect(await auditActions()).toContain('allowlist.entry-removed');

      t.clock.advance(10 * 60_000);
      const stale = await alice.post(adminApiPaths.allowlistCsv, {});
      expect(stale.statusCode).toBe(403);
      expect(apiErrorSchema.parse(stale.json()).error.code).toBe('fresh_proof_required');
      const fresh = new ConsoleClient(t.app);
      await fresh.signIn(await makeOperator(store.db, 'carol@dh.example', t.clock(), 'sender'), t.clock());
      const csv = await fresh.post(adminApiPaths.allowlistCsv, {});
      expect(csv.statusCode, csv.body).toBe(200);
      const lines = csv.body.trim().split(/\r?\n/);
      expect(lines[0]).toBe('"Address","Joined (UTC)","Country","Email linked","Terms version"');
      expect(lines).toHaveLength(3);
      expect(csv.body).not.toContain(gone);
      expect(csv.body).toContain(',"DE"');
      // Yes for the confirmed link, no for the pending one; never the email address. These entries
      // were written before any terms.
      expect(lines.slice(1).map((l) => l.split(',').at(4))).toEqual(['"before terms"', '"before terms"']);
      const linked = (account: (typeof accounts)[number] | undefined) =>
        lines
          .find((l) => l.startsWith(`"${account?.address ?? '-'}"`))
          ?.split(',')
          .at(3);
      expect(linked(accounts[1])).toBe('"yes"');
      expect(linked(accounts[2])).toBe('"no"');
      expect(csv.body).not.toContain('@example.com');
    },
  );
});
