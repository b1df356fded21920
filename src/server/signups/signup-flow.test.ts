import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { smtpMailer } from '../mail/mailer.ts';
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
      t = await buildTestApp({ store, mailer: smtpMailer(sink.url, 'DH <no-reply@dh.example>') });
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
      await t.app.dh.worker.runOnce();
      const mails = await sink.waitFor(already + 1);
      const mail = mails.at(-1);
      if (!mail) throw new Error('no email');
      return mail;
    }

    const pathOf = (link: string) => {
      const u = new URL(link);
      return u.pathname + u.search;
    };

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
