import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import { walletLinkMessages } from '../../../../content/messages/en/wallet-link.ts';
import { siteContent } from '../../../../content/site-content.ts';
import type { AllowlistJoinReply } from '../../../shared/allowlist/allowlist-schema.ts';
import type { ApiErrorBody } from '../../../shared/api-error.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { apiPaths, pagePaths } from '../../../shared/paths.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import { hashToken } from '../signups/index.ts';
import { eraseSubscriber } from '../subscribers/index.ts';
import { checkpointAfterErasure } from '../../store/database.ts';
import { ledgerEntryFor } from '../../store/erasure-ledger.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import type { ParsedMail } from 'mailparser';
import { linkIn, startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { testAccount, type TestAccount } from '../../test/test-account.ts';
import { dialectCases, openTestStore, testSecrets, type TestStore } from '../../test/test-store.ts';
import { postJsonAs, postSignupJson, visitPage, type Visitor } from '../../test/visitor.ts';
import { listEntries } from './queries.ts';
import { groupedAddress, shortAddress } from './short-address.ts';

// Issue 20's optional part, after an outside review: a joined wallet's link to an email counts
// only once the email's owner presses the button of a page reached from an email sent for that
// link, which names the wallet (migration 0024). Neither an address confirmed before nor the
// sign-up's own confirmation confirms it; one email backs one wallet at most.

const content = parseSiteContent({ ...siteContent, wallet: { mode: 'allowlist', chainId: 1 } });

const post = postJsonAs;

const toOf = (mail: ParsedMail) => (mail.to && 'text' in mail.to ? mail.to.text : '');
const isWalletLinkMail = (mail: ParsedMail) => (mail.text ?? '').includes(pagePaths.walletLink);
const DAY = 24 * 60 * 60_000;

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`linking a joined wallet to an email on ${label}`, () => {
    let store: TestStore;
    let sink: SmtpSink;
    let t: TestApp;
    let visitor: Visitor;
    let alice: TestAccount;
    let bob: TestAccount;

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
      bob = testAccount();
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
    /** Joins (again) and asks to link `email`: the answer, which must be the one answer. */
    async function joinAndLink(account: TestAccount, email: string, name = 'Ada') {
      const res = await link((await join(account)).linkToken, email, name);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: walletRefusals.linkAsked });
      return res;
    }
    /** What the console says of a wallet's email. */
    const linkState = async (account: TestAccount) =>
      (await listEntries(store.db, { limit: 50, now: t.clock() })).find((e) => e.address === account.address)?.email;
    const subscriberCount = async () =>
      Number(
        (
          await store.db
            .selectFrom('subscribers')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    /** The subscriber of an address (already in its key's form). */
    const personOf = (email: string) =>
      store.db
        .selectFrom('subscribers')
        .select(['id', 'name', 'status'])
        .where('email_key', '=', email)
        .executeTakeFirstOrThrow();
    const walletLinkRows = async () =>
      (await store.db.selectFrom('outbox').select('kind').where('kind', '=', 'wallet-link').execute()).length;

    /** Sends what the outbox holds and waits for `count` emails in all; the last one. */
    async function mailNumber(count: number) {
      await t.app.jobs.runOnce('outbox');
      const mails = await sink.waitFor(count);
      const mail = mails.at(-1);
      if (!mail) throw new Error('no email');
      return mail;
    }
    /** Every email the sink holds for `to` that asks to link a wallet. */
    const walletMails = (to: string) => sink.messages.filter((m) => toOf(m) === to && isWalletLinkMail(m));

    /** A plain form post from one of our pages (what a browser without JavaScript sends). */
    const pressForm = (path: string, token: string) =>
      t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: new URLSearchParams({ token }).toString(),
      });
    const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';
    const pressConfirm = (confirmLink: string) => pressForm(pagePaths.confirm, tokenOf(confirmLink));
    /** Opens the wallet link's page (nothing changes), then presses its button, as the page's form posts it. */
    async function openAndPressWalletLink(walletLink: string) {
      const url = new URL(walletLink);
      const opened = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      expect(opened.statusCode, opened.body).toBe(200);
      const form = /<form [^>]*>/.exec(opened.body)?.[0] ?? '';
      expect(form).toContain('method="post"');
      const action = /action="([^"]+)"/.exec(form)?.[1];
      const token = /<input type="hidden" name="token" value="([^"]+)"/.exec(opened.body)?.[1];
      expect(action).toBe(pagePaths.walletLink);
      expect(token).toBe(tokenOf(walletLink));
      return pressForm(action ?? '', token ?? '');
    }
    /** Signs up through the form and presses the confirmation: a confirmed person. */
    async function confirmedPerson(email: string, name = 'Hal') {
      expect((await postSignupJson(t.app, visitor, { name, email })).statusCode).toBe(200);
      const mail = await mailNumber(sink.messages.length + 1);
      expect((await pressConfirm(linkIn(mail, 'confirm'))).statusCode).toBe(200);
    }
    /** Hal, confirmed, and Alice's wallet linked to him: asked for, emailed, and pressed from that email. */
    async function aliceLinkedToHal() {
      await confirmedPerson('hal@example.com');
      await joinAndLink(alice, 'hal@example.com');
      const mail = await mailNumber(2);
      expect((await openAndPressWalletLink(linkIn(mail, 'wallet-link'))).statusCode).toBe(200);
    }

    it('a confirmed address: the link is pending, with an email naming the wallet, until its owner presses the button; then linked', async () => {
      await confirmedPerson('hal@example.com');
      await joinAndLink(alice, 'hal@example.com', 'Mallory');
      // Not linked on the asking: the address's owner has not been asked yet.
      expect(await linkState(alice)).toBe('pending');

      const mail = await mailNumber(2);
      expect(toOf(mail)).toBe('hal@example.com');
      // The subject names the wallet short (nothing is decided there); the body shows it whole,
      // checksummed and grouped, on a line of its own (in a monospace span in the HTML), and asks
      // for all of it to be checked: a look-alike wallet can share the short form's 32 bits.
      const wallet = shortAddress(alice.address);
      const whole = groupedAddress(alice.address);
      expect(whole.replace(/ /g, '')).toBe(alice.address);
      expect(whole).toMatch(/^0x(?:[0-9a-fA-F]{4} ){9}[0-9a-fA-F]{4}$/);
      expect(mail.subject).toContain(wallet);
      expect(mail.text).toContain(`${walletLinkMessages.email.asked({ site: 'Diamond Hand (DH)' })}\n\n${whole}\n\n`);
      expect(mail.text).toContain(walletLinkMessages.email.check);
      expect(mail.text).toContain(walletLinkMessages.email.meaning);
      expect(String(mail.html)).toMatch(
        new RegExp(`<bdi dir="ltr"><span style="font-family:ui-monospace[^"]*">${whole}</span></bdi>`),
      );
      // Only the subject (and the HTML's title, which repeats it) says it short.
      expect(`${mail.text} ${String(mail.html).split('<body')[1]}`).not.toContain(wallet);
      expect(mail.html).toContain(escapeHtml(walletLinkMessages.email.button));
      // Nothing the asker typed.
      expect(`${mail.subject} ${mail.text} ${String(mail.html)}`).not.toContain('Mallory');
      expect(mail.headerLines.map((h) => h.key)).toContain('list-unsubscribe-post');
      expect(linkIn(mail, 'wallet-link')).toMatch(/^https:\/\/dh\.example\/wallet-link\?token=[\w-]{43}$/);

      // Opening the page (a person or a mail scanner) names the wallet and changes nothing.
      const walletLink = linkIn(mail, 'wallet-link');
      const url = new URL(walletLink);
      for (const method of ['GET', 'HEAD'] as const) {
        const opened = await t.app.inject({ method, url: `${url.pathname}${url.search}` });
        expect(opened.statusCode).toBe(200);
      }
      const opened = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      const page = walletLinkMessages.page.pending;
      expect(opened.body).toContain(escapeHtml(page.title));
      expect(opened.body).toContain(escapeHtml(page.message));
      expect(opened.body).toContain(escapeHtml(page.button));
      const shownWhole = `<p class="notice-wallet"><bdi dir="ltr"><span class="wallet-address">${whole}</span></bdi></p>`;
      expect(opened.body).toContain(shownWhole);
      expect(opened.body).not.toContain(wallet);
      expect(await linkState(alice)).toBe('pending');

      const pressed = await openAndPressWalletLink(walletLink);
      expect(pressed.statusCode, pressed.body).toBe(200);
      expect(pressed.body).toContain(escapeHtml(walletLinkMessages.page.linked.title));
      expect(pressed.body).toContain(shownWhole);
      expect(await linkState(alice)).toBe('linked');
      // Single use: a second press, or opening it again, says the link does not work.
      const again = await pressForm(pagePaths.walletLink, tokenOf(walletLink));
      expect(again.statusCode).toBe(404);
      expect(again.body).toContain(escapeHtml(walletLinkMessages.page.usedLink.title));
      expect((await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).statusCode).toBe(404);
      expect(await linkState(alice)).toBe('linked');
      // The allowlist holds the subscriber's id, never the address.
      const rows = await store.db.selectFrom('allowlist_entries').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain('hal@');
    });

    it('a new address: the ordinary sign-up confirmation confirms the sign-up, not the link; the tokens do not cross', async () => {
      await joinAndLink(alice, 'new@example.com');
      expect(await linkState(alice)).toBe('pending');
      await t.app.jobs.runOnce('outbox');
      await sink.waitFor(1);
      const confirmation = sink.messages.find((m) => !isWalletLinkMail(m));
      if (!confirmation) throw new Error('expected the sign-up’s confirmation email');
      expect(toOf(confirmation)).toBe('new@example.com');
      // The ordinary confirmation never mentions a wallet, and pressing it confirms the sign-up only.
      expect(confirmation.text).not.toContain(shortAddress(alice.address));
      expect((await pressConfirm(linkIn(confirmation, 'confirm'))).statusCode).toBe(200);
      expect((await personOf('new@example.com')).status).toBe('confirmed');
      expect(await linkState(alice)).toBe('pending');

      await sink.waitFor(2);
      const [walletMail] = walletMails('new@example.com');
      if (!walletMail) throw new Error('expected a wallet-link email');
      // Neither link's token works on the other's page.
      expect((await pressForm(pagePaths.confirm, tokenOf(linkIn(walletMail, 'wallet-link')))).statusCode).toBe(404);
      expect((await pressForm(pagePaths.walletLink, tokenOf(linkIn(confirmation, 'confirm')))).statusCode).toBe(404);
      expect(await linkState(alice)).toBe('pending');

      expect((await openAndPressWalletLink(linkIn(walletMail, 'wallet-link'))).statusCode).toBe(200);
      expect(await linkState(alice)).toBe('linked');
    });

    it('one email backs one wallet: a second wallet replaces the first only when its own link is pressed', async () => {
      await aliceLinkedToHal();
      expect(await linkState(alice)).toBe('linked');

      t.clock.advance(16 * 60_000);
      await joinAndLink(bob, 'hal@example.com', 'Bob');
      // Asked for, not confirmed: the first link stands.
      expect(await linkState(alice)).toBe('linked');
      expect(await linkState(bob)).toBe('pending');
      await mailNumber(3);
      const bobMail = walletMails('hal@example.com')[1];
      if (!bobMail) throw new Error('no second wallet-link email');
      expect(bobMail.subject).toContain(shortAddress(bob.address));

      expect((await openAndPressWalletLink(linkIn(bobMail, 'wallet-link'))).statusCode).toBe(200);
      expect(await linkState(bob)).toBe('linked');
      expect(await linkState(alice)).toBe('none');
      const backing = await store.db
        .selectFrom('allowlist_entries')
        .select('address')
        .where('subscriber_id', 'is not', null)
        .execute();
      expect(backing.map((r) => r.address)).toEqual([bob.address]);
    });

    it('a wallet’s newer request replaces its older one: the older email’s link no longer works', async () => {
      await confirmedPerson('hal@example.com');
      await confirmedPerson('ivy@example.com', 'Ivy');
      await joinAndLink(alice, 'hal@example.com');
      await mailNumber(3);
      await joinAndLink(alice, 'ivy@example.com');
      await mailNumber(4);
      const [halMail] = walletMails('hal@example.com');
      const [ivyMail] = walletMails('ivy@example.com');
      if (!halMail || !ivyMail) throw new Error('expected two wallet-link emails');
      expect((await openAndPressWalletLink(linkIn(ivyMail, 'wallet-link'))).statusCode).toBe(200);
      const stale = await pressForm(pagePaths.walletLink, tokenOf(linkIn(halMail, 'wallet-link')));
      expect(stale.statusCode).toBe(404);
      expect(await linkState(alice)).toBe('linked');
      const linked = await store.db
        .selectFrom('allowlist_entries')
        .innerJoin('subscribers', 'subscribers.id', 'allowlist_entries.subscriber_id')
        .select('subscribers.email')
        .executeTakeFirstOrThrow();
      expect(linked.email).toBe('ivy@example.com');
    });

    it('an expired link does not count: after 7 days its page says so, the press links nothing, the console shows none', async () => {
      await confirmedPerson('hal@example.com');
      await joinAndLink(alice, 'hal@example.com');
      const mail = await mailNumber(2);
      const walletLink = linkIn(mail, 'wallet-link');
      t.clock.advance(7 * DAY + 60_000);
      expect(await linkState(alice)).toBe('none');
      const url = new URL(walletLink);
      const opened = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      expect(opened.statusCode).toBe(410);
      expect(opened.body).toContain(escapeHtml(walletLinkMessages.page.expired.title));
      expect(opened.body).not.toContain('method="post"');
      const pressed = await pressForm(pagePaths.walletLink, tokenOf(walletLink));
      expect(pressed.statusCode).toBe(410);
      expect(await linkState(alice)).toBe('none');
    });

    it('at most one such email per address per 15 minutes, whoever asks; none to a suppressed address; one answer throughout', async () => {
      const carol = testAccount();
      await confirmedPerson('hal@example.com');
      await joinAndLink(alice, 'hal@example.com');
      await joinAndLink(bob, 'hal@example.com');
      await joinAndLink(carol, 'hal@example.com');
      // Leaving and joining again does not start a fresh cool-down.
      await signed(alice, 'leave');
      await joinAndLink(alice, 'hal@example.com');
      expect(await walletLinkRows()).toBe(1);
      expect(await linkState(bob)).toBe('none');

      t.clock.advance(15 * 60_000);
      await joinAndLink(bob, 'hal@example.com');
      expect(await walletLinkRows()).toBe(2);
      expect(await linkState(bob)).toBe('pending');

      // A suppressed address: the same answer, and nothing asked.
      await t.app.suppressions.suppress(store.db, {
        address: 'gone@example.com',
        reason: 'complaint',
        source: 'test',
        now: t.clock(),
      });
      await joinAndLink(carol, 'gone@example.com');
      expect(await walletLinkRows()).toBe(2);
      expect(await linkState(carol)).toBe('none');
    });

    it('answers alike whether the address is new, pending or confirmed (no enumeration); a confirmed record is kept', async () => {
      const carol = testAccount();
      await confirmedPerson('hal@example.com');
      const answers = [
        await link((await join(alice)).linkToken, 'new@example.com'),
        await link((await join(bob)).linkToken, 'new@example.com'), // pending now, in its cool-down
        await link((await join(carol)).linkToken, 'hal@example.com', 'Mallory'), // confirmed
      ];
      expect(answers.map((a) => [a.statusCode, a.body])).toEqual(
        Array(3).fill([200, JSON.stringify({ message: walletRefusals.linkAsked })]),
      );
      expect((await personOf('hal@example.com')).name).toBe('Hal');
      // None counts yet: each waits for its email's owner.
      expect(await linkState(alice)).toBe('pending');
      expect(await linkState(bob)).toBe('none');
      expect(await linkState(carol)).toBe('pending');
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

    it('erasing the person removes both the confirmed link and the pending one, to the byte; the wallets stay on the list', async () => {
      await aliceLinkedToHal();
      t.clock.advance(16 * 60_000);
      await joinAndLink(bob, 'hal@example.com');
      await mailNumber(3);
      expect(await linkState(alice)).toBe('linked');
      expect(await linkState(bob)).toBe('pending');
      const pending = await store.db
        .selectFrom('allowlist_link_requests')
        .select('token_hash')
        .executeTakeFirstOrThrow();
      if (!pending.token_hash) throw new Error('the pending request has no token yet');
      const bobToken = tokenOf(linkIn(walletMails('hal@example.com')[1] as ParsedMail, 'wallet-link'));
      expect(pending.token_hash).toBe(hashToken(bobToken));
      const file = store.url.slice('sqlite:'.length);
      const dataFiles = () => [file, `${file}-wal`].filter((f) => existsSync(f));
      const holds = (f: string, text: string) => readFileSync(f).includes(Buffer.from(text));
      // The scan below finds what is there: before the erasure, the pending link's digest is.
      if (dialect === 'sqlite') expect(dataFiles().some((f) => holds(f, pending.token_hash ?? ''))).toBe(true);

      const { id } = await personOf('hal@example.com');
      // What the console's erase does (admin/subscribers/subscriber-routes.ts): the person, then the WAL emptied.
      const erased = await eraseSubscriber(store.db, id, (key) => ledgerEntryFor(testSecrets(), key, t.clock()));
      expect(erased.outcome).toBe('erased');
      expect(await checkpointAfterErasure(store)).toBe(true);

      expect(await linkState(alice)).toBe('none');
      expect(await linkState(bob)).toBe('none');
      expect(await store.db.selectFrom('allowlist_link_requests').selectAll().execute()).toEqual([]);
      expect(await store.db.selectFrom('allowlist_link_mail').selectAll().execute()).toEqual([]);
      const entries = await store.db.selectFrom('allowlist_entries').select(['address', 'subscriber_id']).execute();
      expect(entries.map((e) => e.subscriber_id)).toEqual([null, null]);
      expect(entries.map((e) => e.address).sort()).toEqual([alice.address, bob.address].sort());
      // The pending link's email no longer links anything.
      expect((await pressForm(pagePaths.walletLink, bobToken)).statusCode).toBe(404);

      if (dialect === 'sqlite') {
        // As the erasure test reads them: the file and its WAL hold neither the address nor the
        // pending link's token digest (deleted rows are zeroed; the erasure empties the WAL).
        expect(dataFiles().length).toBeGreaterThan(0);
        // The wallets are kept.
        expect(dataFiles().some((f) => holds(f, alice.address))).toBe(true);
        for (const f of dataFiles())
          for (const text of ['hal@example.com', pending.token_hash])
            expect(holds(f, text), `${text} in ${f}`).toBe(false);
      }
    });

    it('leaving the list drops a pending request; the person stays subscribed', async () => {
      await joinAndLink(alice, 'ada@example.com');
      expect(await store.db.selectFrom('allowlist_link_requests').selectAll().execute()).toHaveLength(1);
      await signed(alice, 'leave');
      expect(await store.db.selectFrom('allowlist_entries').selectAll().execute()).toEqual([]);
      expect(await store.db.selectFrom('allowlist_link_requests').selectAll().execute()).toEqual([]);
      // Its email is cancelled: nothing names a wallet that left. (The sign-up's confirmation goes.)
      await mailNumber(1);
      expect(walletMails('ada@example.com')).toEqual([]);
      const mails = await store.db.selectFrom('outbox').select(['kind', 'status']).orderBy('kind').execute();
      expect(mails).toEqual([
        { kind: 'confirmation', status: 'sent' },
        { kind: 'wallet-link', status: 'cancelled' },
      ]);
      // Leaving the list is not unsubscribing.
      expect(await subscriberCount()).toBe(1);
    });
  });
}
