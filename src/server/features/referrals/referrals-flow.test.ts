import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import {
  confirmFrom,
  inviteCodeIn,
  inviteCountIn,
  invitePagePathIn,
  joinFrom,
  referralTestEnv,
  signUpFrom,
} from '../../test/referral-kit.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';

// Invite links end to end through the routes, on both stores: a confirmed person's link, who
// counts, each silent refusal with its reason, and the caps. docs/decisions/0060-referral-invites.md

const statusOf = (store: TestStore, email: string) =>
  store.db
    .selectFrom('referral_attributions as a')
    .innerJoin('subscribers as s', 's.id', 'a.invited_id')
    .select('a.status')
    .where('s.email', '=', email)
    .executeTakeFirst()
    .then((r) => r?.status ?? null);

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`invite links on ${label}`, () => {
    let store: TestStore;
    let mailer: ReturnType<typeof memoryMailer>;
    let t: TestApp;
    const start = async (env: Record<string, string> = {}) => {
      store = await openTestStore(dialect);
      mailer = memoryMailer();
      t = await buildTestApp({ store, mailer, env: { ...referralTestEnv, ...env } });
    };
    afterEach(async () => {
      await t.close();
      await store.destroy();
    });

    describe('with the default caps', () => {
      beforeEach(() => start());

      it('counts a confirmed friend, and refuses one network, one mailbox, a disposable domain, silently', async () => {
        const a = await joinFrom(t, mailer, { email: 'ada.lovelace@gmail.com', ip: '203.0.113.1' });
        expect(a.statusCode).toBe(200);
        expect(a.headers['cache-control']).toBe('no-store');
        const code = inviteCodeIn(a.body);
        expect(a.body).toContain(`https://dh.example/?invite=${code}`);
        expect(inviteCountIn(a.body)).toBe(0);
        const page = invitePagePathIn(a.body);

        await joinFrom(t, mailer, { email: 'bob@example.com', ip: '203.0.113.2', invite: code });
        await signUpFrom(t, { email: 'carol@example.com', ip: '203.0.113.3', invite: code });
        // D shares A's network; E is A's mailbox in another spelling; F's domain is disposable.
        await joinFrom(t, mailer, { email: 'dan@example.com', ip: '203.0.113.1', invite: code });
        await joinFrom(t, mailer, { email: 'Ada.Lovelace+friends@googlemail.com', ip: '203.0.113.5', invite: code });
        await joinFrom(t, mailer, { email: 'fay@mailinator.com', ip: '203.0.113.6', invite: code });

        expect(await statusOf(store, 'bob@example.com')).toBe('counted');
        expect(await statusOf(store, 'carol@example.com')).toBe('pending');
        expect(await statusOf(store, 'dan@example.com')).toBe('same_network');
        expect(await statusOf(store, 'Ada.Lovelace+friends@googlemail.com')).toBe('same_mailbox');
        expect(await statusOf(store, 'fay@mailinator.com')).toBe('disposable');

        const shown = await t.app.inject({ url: page });
        expect(shown.statusCode).toBe(200);
        expect(inviteCountIn(shown.body)).toBe(1);
        // Counts only: nobody's address is on the page.
        for (const email of ['bob@example.com', 'carol@example.com', 'dan@example.com', 'fay@mailinator.com'])
          expect(shown.body).not.toContain(email);
      });

      it('stores only keyed network hashes, and the invited domain, never an address', async () => {
        const a = await joinFrom(t, mailer, { email: 'ada@example.com', ip: '198.51.100.7' });
        await joinFrom(t, mailer, { email: 'bob@example.org', ip: '2001:db8:1:2::5', invite: inviteCodeIn(a.body) });
        const rows = await store.db.selectFrom('referral_attributions').selectAll().execute();
        const codes = await store.db.selectFrom('referral_codes').selectAll().execute();
        expect(rows).toHaveLength(1);
        expect(rows[0]?.invited_domain).toBe('example.org');
        const text = JSON.stringify([rows, codes]);
        for (const part of ['198.51.100.7', '198.51.100', '2001:db8']) expect(text).not.toContain(part);
      });

      it('ignores a malformed, unknown or own code: the sign-up works as usual', async () => {
        const a = await joinFrom(t, mailer, { email: 'ada@example.com', ip: '203.0.113.1' });
        const own = inviteCodeIn(a.body);
        for (const [email, invite] of [
          ['x1@example.com', 'not a code'],
          ['x2@example.com', 'A'.repeat(22)],
          ['x3@example.com', `${own}x`],
          ['x4@example.com', ''],
          ['x5@example.com', `${own}`.repeat(300)],
        ] as const)
          await signUpFrom(t, { email, ip: '203.0.113.9', invite });
        // Ada signing up again with her own code (she is confirmed): nothing.
        await signUpFrom(t, { email: 'ada@example.com', ip: '203.0.113.1', invite: own });
        expect(await store.db.selectFrom('referral_attributions').selectAll().execute()).toEqual([]);
        expect(await store.db.selectFrom('subscribers').select('email').execute()).toHaveLength(6);
      });

      it('keeps the first code a person came with', async () => {
        const a = await joinFrom(t, mailer, { email: 'ada@example.com', ip: '203.0.113.1' });
        const b = await joinFrom(t, mailer, { email: 'bob@example.com', ip: '203.0.113.2' });
        await signUpFrom(t, { email: 'cy@example.com', ip: '203.0.113.3', invite: inviteCodeIn(a.body) });
        t.clock.advance(16 * 60_000);
        await signUpFrom(t, { email: 'cy@example.com', ip: '203.0.113.3', invite: inviteCodeIn(b.body) });
        await confirmFrom(t, mailer, { email: 'cy@example.com', ip: '203.0.113.3' });
        const rows = await store.db.selectFrom('referral_attributions').select(['referrer_id', 'status']).execute();
        const ada = await store.db
          .selectFrom('subscribers')
          .select('id')
          .where('email', '=', 'ada@example.com')
          .executeTakeFirstOrThrow();
        expect(rows).toEqual([{ referrer_id: ada.id, status: 'counted' }]);
      });

      it('falls when a counted friend is erased, and takes the code of an erased referrer with it', async () => {
        const a = await joinFrom(t, mailer, { email: 'ada@example.com', ip: '203.0.113.1' });
        await joinFrom(t, mailer, { email: 'bob@example.com', ip: '203.0.113.2', invite: inviteCodeIn(a.body) });
        const page = invitePagePathIn(a.body);
        expect(inviteCountIn((await t.app.inject({ url: page })).body)).toBe(1);
        await store.db.deleteFrom('subscribers').where('email', '=', 'bob@example.com').execute();
        expect(inviteCountIn((await t.app.inject({ url: page })).body)).toBe(0);
        await store.db.deleteFrom('subscribers').where('email', '=', 'ada@example.com').execute();
        expect(await store.db.selectFrom('referral_codes').selectAll().execute()).toEqual([]);
        expect(await store.db.selectFrom('referral_attributions').selectAll().execute()).toEqual([]);
      });
    });

    describe('with caps of 2 per referrer and 1 per network a day', () => {
      beforeEach(() => start({ REFERRALS_PER_REFERRER_DAILY: '2', REFERRALS_PER_NETWORK_DAILY: '1' }));

      it('caps a network, then a referrer, and counts again the next day', async () => {
        const a = await joinFrom(t, mailer, { email: 'ada@example.com', ip: '203.0.113.1' });
        const code = inviteCodeIn(a.body);
        await joinFrom(t, mailer, { email: 'n1@example.com', ip: '198.51.100.1', invite: code });
        await joinFrom(t, mailer, { email: 'n2@example.com', ip: '198.51.100.1', invite: code });
        await joinFrom(t, mailer, { email: 'n3@example.com', ip: '198.51.100.3', invite: code });
        await joinFrom(t, mailer, { email: 'n4@example.com', ip: '198.51.100.4', invite: code });
        expect(await statusOf(store, 'n1@example.com')).toBe('counted');
        expect(await statusOf(store, 'n2@example.com')).toBe('capped');
        expect(await statusOf(store, 'n3@example.com')).toBe('counted');
        expect(await statusOf(store, 'n4@example.com')).toBe('capped');
        t.clock.advance(24 * 60 * 60_000);
        await joinFrom(t, mailer, { email: 'n5@example.com', ip: '198.51.100.1', invite: code });
        expect(await statusOf(store, 'n5@example.com')).toBe('counted');
        const page = await t.app.inject({ url: invitePagePathIn(a.body) });
        expect(inviteCountIn(page.body)).toBe(3);
        expect(page.body).toContain(messagesFor('en').referrals.count({ count: 3 }));
      });

      it('lets an erased friend’s count fall, but not the network slot they used today', async () => {
        const a = await joinFrom(t, mailer, { email: 'ada@example.com', ip: '203.0.113.1' });
        const code = inviteCodeIn(a.body);
        await joinFrom(t, mailer, { email: 'n1@example.com', ip: '198.51.100.1', invite: code });
        await store.db.deleteFrom('subscribers').where('email', '=', 'n1@example.com').execute();
        const page = await t.app.inject({ url: invitePagePathIn(a.body) });
        expect(inviteCountIn(page.body)).toBe(0);
        // Slots used today, not people: the network's one slot stays used until tomorrow.
        await joinFrom(t, mailer, { email: 'n2@example.com', ip: '198.51.100.1', invite: code });
        expect(await statusOf(store, 'n2@example.com')).toBe('capped');
        // The referrer's own cap is counted from the attributions: n1's erasure gave it back.
        await joinFrom(t, mailer, { email: 'n3@example.com', ip: '198.51.100.3', invite: code });
        await joinFrom(t, mailer, { email: 'n4@example.com', ip: '198.51.100.4', invite: code });
        expect(await statusOf(store, 'n3@example.com')).toBe('counted');
        expect(await statusOf(store, 'n4@example.com')).toBe('counted');
      });
    });
  });
}
