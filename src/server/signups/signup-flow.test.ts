import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/built-app.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../test/smtp-sink.ts';
import { dialectCases, openTestStore, type TestStore } from '../test/test-store.ts';
import { postSignupJson, visitPage } from '../test/visitor.ts';

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`sign-up → email → confirm → unsubscribe on ${label}`, () => {
    let store: TestStore;
    let sink: SmtpSink;
    let t: TestApp;

    beforeEach(async () => {
      store = await openTestStore(dialect);
      sink = await startSmtpSink();
      t = await buildTestApp({ store, env: { SMTP_URL: sink.url }, mailer: 'from-env' });
    });
    afterEach(async () => {
      await t.close();
      await sink.close();
      await store.destroy();
    });

    async function signUpAndReceive(email: string) {
      const already = sink.messages.length;
      const visitor = await visitPage(t.app);
      t.clock.advance(4000);
      const res = await postSignupJson(t.app, visitor, { name: 'Hal', email });
      expect(res.statusCode).toBe(200);
      await t.app.jobs.runOnce('outbox');
      const mails = await sink.waitFor(already + 1);
      const mail = mails.at(-1);
      if (!mail) throw new Error('no email');
      return mail;
    }

    const pathOf = (link: string) => {
      const u = new URL(link);
      return u.pathname + u.search;
    };

    it('emails a confirmation with text and HTML parts, both links and the one-click unsubscribe headers', async () => {
      const mail = await signUpAndReceive('ada@example.com');
      expect(mail.subject).toBe('Confirm your sign-up to Diamond Hand (DH)');
      expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('ada@example.com');
      expect(mail.text).toContain('Hi Hal,');
      expect(mail.html).toContain('Confirm my sign-up');
      expect(linkIn(mail, 'confirm')).toMatch(/^https:\/\/dh\.example\/confirm\?token=[\w-]{43}$/);
      const unsubscribe = linkIn(mail, 'unsubscribe');
      // Unfolded (RFC 5322 §2.2.3) so a long header reads as one line.
      const header = (key: string) => (mail.headerLines.find((h) => h.key === key)?.line ?? '').replace(/\r\n\s+/g, ' ');
      expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect(header('list-unsubscribe')).toBe(`List-Unsubscribe: <${unsubscribe}>`);
      const row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ kind: 'confirmation', status: 'sent' });
      // Only the hash of the link's token is stored.
      const token = new URL(linkIn(mail, 'confirm')).searchParams.get('token') ?? '';
      expect(row.token_hash).not.toBe(token);
      expect(JSON.stringify(await store.db.selectFrom('subscribers').selectAll().execute())).not.toContain(token);
    });

    it('does not send the confirmation when the person unsubscribed before it went out', async () => {
      const visitor = await visitPage(t.app);
      t.clock.advance(4000);
      await postSignupJson(t.app, visitor, { name: 'Cy', email: 'cy@example.com' });
      await store.db.updateTable('subscribers').set({ status: 'unsubscribed' }).execute();
      await t.app.jobs.runOnce('outbox');
      const row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row.status).toBe('cancelled');
      expect(sink.messages).toHaveLength(0);
    });

    it('confirms through the emailed link, once, on a page in the site look', async () => {
      const mail = await signUpAndReceive('hal@example.com');
      const confirm = await t.app.inject({ url: pathOf(linkIn(mail, 'confirm')) });
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain('You are on the list');
      expect(confirm.body).toContain('<meta name="robots" content="noindex">');
      const sub = await store.db.selectFrom('subscribers').selectAll().executeTakeFirstOrThrow();
      expect(sub.status).toBe('confirmed');

      const reused = await t.app.inject({ url: pathOf(linkIn(mail, 'confirm')) });
      expect(reused.statusCode).toBe(404);
      expect(reused.body).toContain('This link does not work');
    });

    it('unsubscribes through the link in the email, and never mails them again', async () => {
      const mail = await signUpAndReceive('ivy@example.com');
      const res = await t.app.inject({ url: pathOf(linkIn(mail, 'unsubscribe')) });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('You are unsubscribed');
      const sub = await store.db.selectFrom('subscribers').selectAll().executeTakeFirstOrThrow();
      expect(sub.status).toBe('unsubscribed');
      // Their old confirmation link no longer puts them back.
      expect((await t.app.inject({ url: pathOf(linkIn(mail, 'confirm')) })).statusCode).toBe(404);
    });

    it('honours RFC 8058 one-click unsubscribe POSTs from a mail provider', async () => {
      const mail = await signUpAndReceive('jo@example.com');
      const res = await t.app.inject({
        method: 'POST',
        url: pathOf(linkIn(mail, 'unsubscribe')),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(res.statusCode).toBe(200);
      const sub = await store.db.selectFrom('subscribers').selectAll().executeTakeFirstOrThrow();
      expect(sub.status).toBe('unsubscribed');
    });

    it('refuses a tampered unsubscribe link', async () => {
      const mail = await signUpAndReceive('kim@example.com');
      const link = new URL(linkIn(mail, 'unsubscribe'));
      link.searchParams.set('sig', 'x'.repeat(43));
      const res = await t.app.inject({ url: link.pathname + link.search });
      expect(res.statusCode).toBe(404);
      const sub = await store.db.selectFrom('subscribers').selectAll().executeTakeFirstOrThrow();
      expect(sub.status).toBe('pending');
    });

    it('answers an expired confirmation link with 410 and a way forward', async () => {
      const mail = await signUpAndReceive('lee@example.com');
      t.clock.advance(8 * 24 * 60 * 60 * 1000);
      const res = await t.app.inject({ url: pathOf(linkIn(mail, 'confirm')) });
      expect(res.statusCode).toBe(410);
      expect(res.body).toContain('Sign up again');
    });
  });
}
