import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walletRefusals } from '../../../content/messages/en/allowlist.ts';
import { siteContent } from '../../../content/site-content.ts';
import type { AllowlistJoinReply } from '../../shared/allowlist/allowlist-schema.ts';
import type { ApiErrorBody } from '../../shared/api-error.ts';
import { parseSiteContent } from '../../shared/content-schema.ts';
import { apiPaths, pagePaths } from '../../shared/paths.ts';
import { eraseSubscriber } from '../signups/queries.ts';
import { ledgerEntryFor } from '../store/erasure-ledger.ts';
import { buildTestApp, type TestApp } from '../test/built-app.ts';
import type { ParsedMail } from 'mailparser';
import { linkIn, startSmtpSink, type SmtpSink } from '../test/smtp-sink.ts';
import { testAccount, type TestAccount } from '../test/test-account.ts';
import { dialectCases, openTestStore, testSecrets, type TestStore } from '../test/test-store.ts';
import { postJsonAs, postSignupJson, visitPage, type Visitor } from '../test/visitor.ts';
import { listEntries } from './queries.ts';

// Issue 20's optional part: a joined wallet linked to an email, which counts only once that email
// is confirmed through the sign-up's double opt-in (decision 0045, Consequences 2026-11-26).

const content = parseSiteContent({ ...siteContent, wallet: { mode: 'allowlist', chainId: 1 } });

const post = postJsonAs;

const toOf = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`linking a joined wallet to an email on ${label}`, () => {
    let store: TestStore;
    let sink: SmtpSink;
    let t: TestApp;
    let visitor: Visitor;
    let alice: TestAccount;

    beforeEach(async () => {
      store = await openTestStore(dialect);
      sink = await startSmtpSink();
      t = await buildTestApp({
        store,
        content,
        env: { SMTP_URL: sink.url, ALLOWLIST_RATE_LIMIT: '1000' },
        mailer: 'from-env',
      });
      alice = testAccount();
      visitor = await visitPage(t.app);
      t.clock.advance(5_000);
    });
    afterEach(async () => {
      await t.close();
      await sink.close();
      await store.destroy();
    });

    /** Asks for a message, signs it with a real key and sends it: the answer. */
    async function signed(account: TestAccount, purpose: 'join' | 'leave') {
      const asked = await post(t.app, visitor, apiPaths.allowlistChallenge, { address: account.address, purpose });
      const { message } = asked.json<{ message: string }>();
      const url = purpose === 'join' ? apiPaths.allowlistJoin : apiPaths.allowlistLeave;
      const res = await post(t.app, visitor, url, { message, signature: account.sign(message) });
      expect(res.statusCode, res.body).toBe(200);
      return res;
    }
    /** Joins; the join's reply (with its link token). */
    const join = async (account: TestAccount) => (await signed(account, 'join')).json<AllowlistJoinReply>();
    const link = (linkToken: string, email: string, name = 'Ada') =>
      post(t.app, visitor, apiPaths.allowlistLink, { linkToken, name, email });
    const linkState = async (address: string) =>
      (await listEntries(store.db, { limit: 50 })).find((e) => e.address === address)?.email;
    const subscriberCount = async () =>
      Number(
        (
          await store.db
            .selectFrom('subscribers')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    async function confirmationMail(count: number) {
      await t.app.jobs.runOnce('outbox');
      const mails = await sink.waitFor(count);
      const mail = mails.at(-1);
      if (!mail) throw new Error('no email');
      return mail;
    }
    /** The person presses the confirm page's button (a plain form post from our own page). */
    const pressConfirm = (confirmLink: string) =>
      t.app.inject({
        method: 'POST',
        url: pagePaths.confirm,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'text/html',
          origin: 'https://dh.example',
        },
        payload: new URLSearchParams({ token: new URL(confirmLink).searchParams.get('token') ?? '' }).toString(),
      });

    it('a new address: pending, the usual confirmation email, confirmed by its button: linked', async () => {
      const joined = await join(alice);
      expect(await linkState(alice.address)).toBe('none');

      const res = await link(joined.linkToken, 'ada@example.com');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: walletRefusals.linkAsked });
      expect(await linkState(alice.address)).toBe('pending');
      // The allowlist holds the subscriber's id, never the address.
      const row = await store.db
        .selectFrom('allowlist_entries')
        .selectAll()
        .where('address', '=', alice.address)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain('ada@');
      expect(row.link_token_hash).toBeNull();

      const mail = await confirmationMail(1);
      expect(toOf(mail)).toBe('ada@example.com');
      const pressed = await pressConfirm(linkIn(mail, 'confirm'));
      expect(pressed.statusCode).toBe(200);
      expect(await linkState(alice.address)).toBe('linked');
    });

    it('refuses, in words, a link without the join’s proof: made up, spent, expired, or after leaving', async () => {
      const made = await link('x'.repeat(32), 'ada@example.com');
      expect(made.statusCode).toBe(400);
      expect(made.json<ApiErrorBody>().error.message).toBe(walletRefusals.linkUnproved);

      const joined = await join(alice);
      expect((await link(joined.linkToken, 'ada@example.com')).statusCode).toBe(200);
      const spent = await link(joined.linkToken, 'mallory@example.com');
      expect(spent.statusCode).toBe(400);
      expect(spent.json<ApiErrorBody>().error.message).toBe(walletRefusals.linkUnproved);

      t.clock.advance(60_000);
      const late = await join(alice);
      t.clock.advance(31 * 60_000);
      const expired = await link(late.linkToken, 'mallory@example.com');
      expect(expired.json<ApiErrorBody>().error.message).toBe(walletRefusals.linkUnproved);

      // A token of a wallet that has since left the list proves nothing any more.
      const before = await join(alice);
      await signed(alice, 'leave');
      const gone = await link(before.linkToken, 'mallory@example.com');
      expect(gone.statusCode).toBe(400);
      expect(gone.json<ApiErrorBody>().error.message).toBe(walletRefusals.linkUnproved);

      // Nobody was signed up by the refused requests: only Ada.
      expect(await subscriberCount()).toBe(1);
    });

    it('answers alike whether the address is new, pending or confirmed (no enumeration); cool-down and a confirmed record kept', async () => {
      const bob = testAccount();
      const carol = testAccount();
      // Confirmed through the form first.
      expect((await postSignupJson(t.app, visitor, { name: 'Hal', email: 'hal@example.com' })).statusCode).toBe(200);
      const halMail = await confirmationMail(1);
      expect((await pressConfirm(linkIn(halMail, 'confirm'))).statusCode).toBe(200);

      const answers = [
        await link((await join(alice)).linkToken, 'new@example.com'),
        await link((await join(bob)).linkToken, 'new@example.com'), // pending now, in its cool-down
        await link((await join(carol)).linkToken, 'hal@example.com', 'Mallory'), // confirmed
      ];
      expect(answers.map((a) => [a.statusCode, a.body])).toEqual(
        Array(3).fill([200, JSON.stringify({ message: walletRefusals.linkAsked })]),
      );
      // One confirmation email for new@ (the cool-down), none more for Hal; Hal's name unchanged.
      await t.app.jobs.runOnce('outbox');
      await sink.waitFor(2);
      expect(sink.messages.map(toOf)).toEqual(['hal@example.com', 'new@example.com']);
      const hal = await store.db
        .selectFrom('subscribers')
        .select('name')
        .where('email_key', '=', 'hal@example.com')
        .executeTakeFirstOrThrow();
      expect(hal.name).toBe('Hal');
      expect(await linkState(carol.address)).toBe('linked');
      expect(await linkState(bob.address)).toBe('pending');
    });

    it('erasing the subscriber removes the link; leaving the list removes the entry with it', async () => {
      const joined = await join(alice);
      await link(joined.linkToken, 'ada@example.com');
      const { subscriber_id: id } = await store.db
        .selectFrom('allowlist_entries')
        .select('subscriber_id')
        .where('address', '=', alice.address)
        .executeTakeFirstOrThrow();
      if (!id) throw new Error('not linked');
      const erased = await eraseSubscriber(store.db, id, (key) => ledgerEntryFor(testSecrets(), key, t.clock()));
      expect(erased.outcome).toBe('erased');
      expect(await linkState(alice.address)).toBe('none');
      const after = await store.db
        .selectFrom('allowlist_entries')
        .select(['subscriber_id'])
        .where('address', '=', alice.address)
        .executeTakeFirstOrThrow();
      expect(after.subscriber_id).toBeNull();

      const again = await join(alice);
      await link(again.linkToken, 'ada@example.com');
      await signed(alice, 'leave');
      expect(await store.db.selectFrom('allowlist_entries').selectAll().execute()).toEqual([]);
      // The person stays subscribed (pending): leaving the list is not unsubscribing.
      expect(await subscriberCount()).toBe(1);
    });
  });
}
