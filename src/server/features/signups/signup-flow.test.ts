import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { defaultLocale } from '../../../shared/locales.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { unspokenLocale } from '../../test/locales-kit.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { postSignupJson, visitPage } from '../../test/visitor.ts';

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

    it("stores the page's locale with the sign-up and writes the email in the subscriber's locale", async () => {
      const first = await signUpAndReceive('ada@example.com');
      const row = await store.db.selectFrom('subscribers').select('locale').executeTakeFirstOrThrow();
      expect(row.locale).toBe('en');
      expect(first.html).toContain('<html lang="en" dir="ltr">');
      // A locale this build does not speak (say, one withdrawn) still gets the email, in the default.
      await store.db.updateTable('subscribers').set({ locale: unspokenLocale }).execute();
      t.clock.advance(16 * 60_000);
      const again = await signUpAndReceive('ada@example.com');
      expect(again.subject).toBe(messagesFor(defaultLocale).confirmationEmail.subject({ site: 'Diamond Hand (DH)' }));
      expect(again.html).toContain(`<html lang="${defaultLocale}" dir="ltr">`);
    });

    it("stores the Spanish page's locale and writes the confirmation in Spanish, its links to Spanish pages", async () => {
      const visitor = await visitPage(t.app);
      t.clock.advance(4000);
      const res = await postSignupJson(t.app, visitor, { name: 'Inés', email: 'ines@example.com', locale: 'es' });
      expect(res.json<{ message: string }>().message).toBe(messagesFor('es').signupAnswers.success);
      const row = await store.db
        .selectFrom('subscribers')
        .select(['locale', 'consent_version'])
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ locale: 'es', consent_version: '2026-11-26.es' });
      // What they agreed to is on record in the words they read.
      const wording = await store.db
        .selectFrom('consent_wordings')
        .select('text')
        .where('version', '=', row.consent_version)
        .executeTakeFirstOrThrow();
      expect(wording.text).toBe(messagesFor('es').signup.consent);
      await t.app.jobs.runOnce('outbox');
      const [mail] = await sink.waitFor(1);
      if (!mail) throw new Error('no email');
      const spanish = messagesFor('es').confirmationEmail;
      expect(mail.subject).toBe('Confirma tu suscripción a Diamond Hand (DH)');
      expect(mail.text).toContain(spanish.hello);
      expect(mail.text).toContain(spanish.validity);
      expect(mail.html).toContain('<html lang="es" dir="ltr">');
      expect(mail.html).toContain(spanish.button);
      expect(mail.html).not.toContain(messagesFor(defaultLocale).confirmationEmail.button);
      // The links open the pages in Spanish.
      expect(linkIn(mail, 'confirm')).toMatch(/^https:\/\/dh\.example\/es\/confirm\?token=[\w-]{43}$/);
    });

    it('writes an Arabic email right to left', async () => {
      const visitor = await visitPage(t.app);
      t.clock.advance(4000);
      await postSignupJson(t.app, visitor, { name: 'Layla', email: 'layla@example.com', locale: 'ar' });
      await t.app.jobs.runOnce('outbox');
      const [mail] = await sink.waitFor(1);
      if (!mail) throw new Error('no email');
      expect(mail.html).toContain('<html lang="ar" dir="rtl">');
      expect(mail.text).toContain(messagesFor('ar').confirmationEmail.hello);
    });

    it('refuses a locale it does not speak, or a lookalike of one, in words, and stores nothing', async () => {
      const visitor = await visitPage(t.app);
      t.clock.advance(4000);
      // Another language; another case; a trailing zero-width space; a Cyrillic "е"; not a string.
      for (const locale of [unspokenLocale, 'ES', 'es\u200b', '\u0435s', 7, '']) {
        const res = await postSignupJson(t.app, visitor, { name: 'X', email: 'x@example.com', locale });
        expect(res.statusCode, String(locale)).toBe(400);
        expect(res.json<{ error: { message: string } }>().error.message).toMatch(/Please/);
      }
      expect(await store.db.selectFrom('subscribers').select('id').execute()).toEqual([]);
    });

    it('gives rows stored before subscribers had a locale the default one', async () => {
      // A row written without the column, as every row was before migration 0018.
      const at = new Date(0).toISOString();
      await store.db
        .insertInto('subscribers')
        .values({
          id: 'old-row',
          email: 'old@example.com',
          email_key: 'old@example.com',
          name: 'Old',
          comment: '',
          status: 'confirmed',
          created_at: at,
          updated_at: at,
          confirmed_at: at,
          unsubscribed_at: null,
          last_confirmation_at: null,
          consent_version: '2026-11-21',
          consent_at: at,
          consent_page: '/',
          country: null,
          region: null,
          city: null,
        })
        .execute();
      const old = await store.db.selectFrom('subscribers').select('locale').executeTakeFirstOrThrow();
      expect(old.locale).toBe('en');
    });

    it('emails a confirmation with text and HTML parts, both links and the one-click unsubscribe headers', async () => {
      const mail = await signUpAndReceive('ada@example.com');
      expect(mail.subject).toBe('Confirm your sign-up to Diamond Hand (DH)');
      expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('ada@example.com');
      expect(mail.text).toContain('Hello,');
      // Nothing the sender typed goes to an address nobody has confirmed yet.
      expect(mail.text).not.toContain('Hal');
      expect(mail.html).not.toContain('Hal');
      expect(mail.html).toContain('Confirm my sign-up');
      expect(linkIn(mail, 'confirm')).toMatch(/^https:\/\/dh\.example\/confirm\?token=[\w-]{43}$/);
      const unsubscribe = linkIn(mail, 'unsubscribe');
      // Unfolded (RFC 5322 §2.2.3) so a long header reads as one line.
      const header = (key: string) =>
        (mail.headerLines.find((h) => h.key === key)?.line ?? '').replace(/\r\n\s+/g, ' ');
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

    const statusOf = async () =>
      (await store.db.selectFrom('subscribers').select('status').executeTakeFirstOrThrow()).status;
    /** The link's page, opened as a mail scanner does: GET and HEAD, several times. */
    async function scan(url: string) {
      for (const method of ['HEAD', 'GET', 'HEAD', 'GET'] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode).toBe(200);
      }
      return t.app.inject({ url });
    }
    /** The form on a link's page: where it posts and its fields, as the browser would send them. */
    function formOn(page: string) {
      const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
      const form = /<form\b[^>]*>/.exec(page)?.[0] ?? '';
      const action = attr(form, 'action');
      if (!action || attr(form, 'method') !== 'post') throw new Error('no form that posts on the page');
      const fields = new URLSearchParams();
      for (const [input] of page.matchAll(/<input\b[^>]*type="hidden"[^>]*>/g))
        fields.set(attr(input, 'name') ?? '', attr(input, 'value') ?? '');
      return { action: action.replace(/&amp;/g, '&'), body: fields.toString() };
    }
    /** The person presses the page's button (a plain form post from our own page). */
    const press = (form: { action: string; body: string }) =>
      t.app.inject({
        method: 'POST',
        url: form.action,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'text/html',
          origin: 'https://dh.example',
        },
        payload: form.body,
      });

    it('opening the confirm link (a scanner: GET and HEAD, again and again) changes nothing; the press confirms, once', async () => {
      const mail = await signUpAndReceive('hal@example.com');
      const page = await scan(pathOf(linkIn(mail, 'confirm')));
      expect(page.body).toContain('Confirm your sign-up');
      expect(page.body).toContain('<meta name="robots" content="noindex">');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(await statusOf()).toBe('pending');
      // Nothing was spent: the link's token is still there for the person.
      const row = await store.db.selectFrom('outbox').select('token_hash').executeTakeFirstOrThrow();
      expect(row.token_hash).not.toBeNull();

      const form = formOn(page.body);
      expect(form.action).toBe('/confirm');
      const confirmed = await press(form);
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.body).toContain('You are on the list');
      expect(await statusOf()).toBe('confirmed');

      // Used: neither the press nor the link works again, and the page says so.
      const replayed = await press(form);
      expect(replayed.statusCode).toBe(404);
      expect(replayed.body).toContain('This link does not work');
      const reopened = await t.app.inject({ url: pathOf(linkIn(mail, 'confirm')) });
      expect(reopened.statusCode).toBe(404);
      expect(reopened.body).toContain('was already used');
    });

    it('opening the unsubscribe link changes nothing; the press unsubscribes and the old confirm link is dead', async () => {
      const mail = await signUpAndReceive('ivy@example.com');
      const page = await scan(pathOf(linkIn(mail, 'unsubscribe')));
      expect(page.body).toContain('Unsubscribe me');
      expect(await statusOf()).toBe('pending');

      const res = await press(formOn(page.body));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('You are unsubscribed');
      expect(await statusOf()).toBe('unsubscribed');
      // Their old confirmation link no longer puts them back.
      expect((await t.app.inject({ url: pathOf(linkIn(mail, 'confirm')) })).statusCode).toBe(404);
      // Opening the link again says plainly that it is done, with nothing left to press.
      const again = await t.app.inject({ url: pathOf(linkIn(mail, 'unsubscribe')) });
      expect(again.body).toContain('You are unsubscribed');
      expect(again.body).not.toContain('<form');
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
      expect(res.json()).toEqual({ message: 'Unsubscribed. We will not email you again.' });
      expect(await statusOf()).toBe('unsubscribed');
    });

    it('honours a one-click POST with a multipart body, and no Origin, cookie or token', async () => {
      const mail = await signUpAndReceive('mo@example.com');
      const res = await t.app.inject({
        method: 'POST',
        url: pathOf(linkIn(mail, 'unsubscribe')),
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
        payload: '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n',
      });
      expect(res.statusCode).toBe(200);
      expect(await statusOf()).toBe('unsubscribed');
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

    it("answers a broken, forged or hostile link at a locale's address in that locale's words, changing nothing", async () => {
      const es = messagesFor('es').linkPages;
      const ar = messagesFor('ar').linkPages;
      // A made-up token, pressed at the Spanish address: the Spanish "used link" page, 404.
      const forged = await t.app.inject({
        method: 'POST',
        url: '/es/confirm',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: 'token=forged',
      });
      expect(forged.statusCode).toBe(404);
      expect(forged.body).toContain('<html lang="es" dir="ltr">');
      expect(forged.body).toContain(es.usedLink.title);
      // A query that cannot be read (a parameter twice): the Spanish "broken link" page, 400.
      const twice = await t.app.inject({ url: '/es/confirm?token=a&token=b' });
      expect(twice.statusCode).toBe(400);
      expect(twice.body).toContain(es.brokenLink.title);
      // A mail provider's one-click without a valid signature: the one error shape, in Arabic if asked.
      const oneClick = await t.app.inject({
        method: 'POST',
        url: '/ar/unsubscribe?id=someone&sig=' + 'x'.repeat(43),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'ar' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.statusCode).toBe(404);
      expect(oneClick.json<{ error: { code: string; message: string } }>().error).toEqual({
        code: 'not_found',
        message: ar.oneClickInvalid,
      });
      // Lookalike spellings of a locale's segment are no locale: another case, an encoded slash, a
      // Cyrillic "е", an invisible zero-width space. Nothing answers them as Spanish.
      for (const path of [
        '/ES/confirm',
        '/es%2Fconfirm',
        `/${encodeURIComponent('\u0435s')}/confirm`,
        `/es${encodeURIComponent('\u200b')}/confirm`,
      ]) {
        const res = await t.app.inject({ url: path, headers: { accept: 'text/html' } });
        expect(res.statusCode, path).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, path).toBeLessThan(500);
        expect(res.body, path).not.toContain('<html lang="es"');
      }
      expect(await store.db.selectFrom('subscribers').select('id').execute()).toEqual([]);
    });

    it('answers an expired confirmation link with 410 and a way forward', async () => {
      const mail = await signUpAndReceive('lee@example.com');
      t.clock.advance(8 * 24 * 60 * 60 * 1000);
      const res = await t.app.inject({ url: pathOf(linkIn(mail, 'confirm')) });
      expect(res.statusCode).toBe(410);
      expect(res.body).toContain('This link has expired');
      expect(res.body).toContain('Sign up again');
      expect(res.body).not.toContain('<form');
      const token = new URL(linkIn(mail, 'confirm')).searchParams.get('token') ?? '';
      const pressed = await press({ action: '/confirm', body: new URLSearchParams({ token }).toString() });
      expect(pressed.statusCode).toBe(410);
      expect(await statusOf()).toBe('pending');
    });
  });
}
