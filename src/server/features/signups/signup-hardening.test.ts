import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../../shared/api-error.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { signupAnswers, signupMessages } from '../../../../content/messages/en/signup.ts';
import { fieldErrorText } from '../../../shared/signup-schema.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { postSignupForm, postSignupJson, visitPage, type Visitor } from '../../test/visitor.ts';

// What a hostile visitor tried against the sign-up (issue 8, part A), on both databases.

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`sign-up hardening on ${label}`, () => {
    let store: TestStore;
    let t: TestApp;
    let mailer: ReturnType<typeof memoryMailer>;
    let visitor: Visitor;

    beforeEach(async () => {
      store = await openTestStore(dialect);
      mailer = memoryMailer();
      t = await buildTestApp({ store, mailer, env: { SIGNUP_RATE_LIMIT: '1000' } });
      visitor = await visitPage(t.app);
      t.clock.advance(5000);
    });
    afterEach(async () => {
      await t.close();
      await store.destroy();
    });

    const rows = () => store.db.selectFrom('subscribers').selectAll().execute();

    describe('the XSRF token is required whatever the spelling of Content-Type', () => {
      // Everything but the plain form's own type needs the token; the form is covered by the
      // same-origin check alone.
      it.each([
        'APPLICATION/JSON',
        'Application/Json',
        'application/json; charset=UTF-8',
        'application/json;charset=utf-8',
        ' application/json',
        'application/json ',
        'application/json;',
        'application/json ; charset="utf-8"',
        'application/x-json-but-not',
      ])('%j with the cookies but no X-XSRF-TOKEN is refused and stores nothing', async (contentType) => {
        const res = await postSignupJson(
          t.app,
          visitor,
          { name: 'Mallory', email: 'm@example.com' },
          { 'content-type': contentType, 'x-xsrf-token': '' },
        );
        expect([403, 415]).toContain(res.statusCode);
        expect(await rows()).toEqual([]);
      });

      it('each JSON spelling is accepted with the token', async () => {
        for (const [i, contentType] of [
          'APPLICATION/JSON',
          'application/json; charset=UTF-8',
          ' application/json',
          'application/json;',
        ].entries()) {
          const res = await postSignupJson(
            t.app,
            visitor,
            { name: 'Ok', email: `ok${i}@example.com` },
            { 'content-type': contentType },
          );
          expect(res.statusCode, contentType).toBe(200);
        }
        expect(await rows()).toHaveLength(4);
      });

      it('a JSON body sent as a web form (no token needed) is read as a form and refused in words', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: pagePaths.signup,
          headers: {
            'content-type': 'APPLICATION/X-WWW-FORM-URLENCODED',
            origin: 'https://dh.example',
            cookie: visitor.cookie,
            accept: 'application/json',
          },
          payload: JSON.stringify({ name: 'Mallory', email: 'm@example.com' }),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json<ApiErrorBody>().error.code).toBe('invalid_fields');
        expect(await rows()).toEqual([]);
      });
    });

    it('a repeat sign-up never changes a confirmed person, and answers exactly like a new one', async () => {
      const first = await postSignupJson(t.app, visitor, {
        name: 'Target',
        email: 'target@example.com',
        comment: 'mine',
      });
      await store.db
        .updateTable('subscribers')
        .set({ status: 'confirmed', confirmed_at: t.clock().toISOString() })
        .execute();
      const [before] = await rows();
      t.clock.advance(60 * 60 * 1000);
      const again = await postSignupJson(t.app, visitor, {
        name: 'Mallory',
        email: 'TARGET@example.com',
        comment: 'pwned',
      });
      const fresh = await postSignupJson(t.app, visitor, { name: 'Someone', email: 'someone@example.com' });
      expect(again.statusCode).toBe(first.statusCode);
      expect(again.body).toBe(first.body);
      expect(again.body).toBe(fresh.body);
      const after = (await rows()).find((r) => r.email_key === 'target@example.com');
      expect(after).toEqual(before);
      // And no email: a confirmed person is not asked again.
      expect(
        await store.db
          .selectFrom('outbox')
          .select('subscriber_id')
          .where('subscriber_id', '=', before?.id ?? '')
          .execute(),
      ).toHaveLength(1);
    });

    describe('fields that cannot carry a message', () => {
      const phishing = 'Hi Bob,\n\nYour account is locked. Visit https://evil.example/login';

      it('the phishing name is refused beside the field, and nothing is stored or mailed', async () => {
        const res = await postSignupJson(t.app, visitor, { name: phishing, email: 'bob@example.com' });
        expect(res.statusCode).toBe(400);
        expect(res.json<ApiErrorBody>().error.fields).toEqual({ name: 'name.lines' });
        const plain = await postSignupForm(t.app, visitor, { name: phishing, email: 'bob@example.com' });
        expect(plain.statusCode).toBe(400);
        expect(plain.body).toContain('id="signup-name-error"');
        expect(plain.body).toContain(fieldErrorText(signupMessages, 'name.lines'));
        expect(await rows()).toEqual([]);
        await t.app.jobs.runOnce('outbox');
        expect(mailer.sent).toEqual([]);
      });

      it.each([
        ['Your account is locked, visit https://evil.example/login', 'name.url'],
        ['see evil.example/login', 'name.url'],
        ['www.evil.example', 'name.url'],
        ['Bob\u202Egnp.exe', 'name.invisible'],
        ['Bob\u200B', 'name.invisible'],
        ['Bob\u2028Line two', 'name.lines'],
        ['Bob\u0007', 'name.control'],
      ])('name %j: %s', async (name, code) => {
        const res = await postSignupJson(t.app, visitor, { name, email: 'bob@example.com' });
        expect(res.statusCode).toBe(400);
        expect(res.json<ApiErrorBody>().error.fields?.name).toBe(code);
        expect(await rows()).toEqual([]);
      });

      it('a name that passes still stays out of the confirmation email', async () => {
        await postSignupJson(t.app, visitor, { name: 'Bob Account Locked Call Us', email: 'bob@example.com' });
        await t.app.jobs.runOnce('outbox');
        expect(mailer.sent).toHaveLength(1);
        expect(mailer.sent[0]?.text).not.toContain('Locked');
        expect(mailer.sent[0]?.html).not.toContain('Locked');
      });

      it('NUL is refused in every field with words beside it (on PostgreSQL it used to be a database error)', async () => {
        const res = await postSignupJson(t.app, visitor, {
          name: 'A\u0000B',
          email: 'a\u0000@example.com',
          comment: 'x\u0000y',
        });
        expect(res.statusCode).toBe(400);
        expect(res.json<ApiErrorBody>().error.fields).toEqual({
          name: 'name.control',
          email: 'email.localAscii',
          comment: 'comment.control',
        });
        const plain = await postSignupForm(t.app, visitor, {
          name: 'Ann',
          email: 'ann@example.com',
          comment: 'x\u0000y',
        });
        expect(plain.statusCode).toBe(400);
        expect(plain.body).toContain(fieldErrorText(signupMessages, 'comment.control'));
        expect(await rows()).toEqual([]);
      });

      it('the comment keeps its line breaks (one kind) and refuses the rest of the control range', async () => {
        const ok = await postSignupJson(t.app, visitor, {
          name: 'Ann',
          email: 'ann@example.com',
          comment: 'one\r\ntwo\nthree\tfour',
        });
        expect(ok.statusCode).toBe(200);
        expect((await rows())[0]?.comment).toBe('one\ntwo\nthree four');
        for (const c of ['\u0001', '\u001b[31m', '\u007f', '\u0085', '\u009b']) {
          const res = await postSignupJson(t.app, visitor, {
            name: 'Ann',
            email: 'ann2@example.com',
            comment: `a${c}b`,
          });
          expect(res.statusCode, JSON.stringify(c)).toBe(400);
        }
      });

      it('an internationalised domain is accepted, stored and mailed in its ASCII form, one person either way', async () => {
        const res = await postSignupJson(t.app, visitor, { name: 'Ana', email: 'ana@Bücher.de' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ message: signupAnswers.success });
        const again = await postSignupJson(t.app, visitor, { name: 'Ana', email: 'ana@xn--bcher-kva.de' });
        expect(again.statusCode).toBe(200);
        expect((await rows()).map((r) => [r.email, r.email_key])).toEqual([
          ['ana@xn--bcher-kva.de', 'ana@xn--bcher-kva.de'],
        ]);
        await t.app.jobs.runOnce('outbox');
        expect(mailer.sent.map((m) => m.to)).toEqual(['ana@xn--bcher-kva.de']);
      });
    });
  });
}

describe('the one-click unsubscribe POST reads no more than the body limit', () => {
  let t: TestApp;
  let server: http.Server;
  afterEach(() => t.close());

  it('answers 413 to a 2 MB multipart body having read about 16 KB of it', async () => {
    t = await buildTestApp();
    let readWhenAnswered = -1;
    t.app.addHook('onSend', async (request) => {
      readWhenAnswered = request.raw.socket.bytesRead;
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    server = t.app.server;
    const { port } = server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/unsubscribe?id=x&sig=y',
        // Chunked: no Content-Length for the server to refuse on, so it must count what it reads.
        headers: { 'content-type': 'multipart/form-data; boundary=b', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (error) => (readWhenAnswered >= 0 ? undefined : reject(error)));
      const chunk = Buffer.alloc(16 * 1024, 97);
      let sent = 0;
      const pump = () => {
        while (sent < 2 * 1024 * 1024 && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!req.destroyed) req.end();
      };
      pump();
    });
    expect(status).toBe(413);
    expect(readWhenAnswered).toBeGreaterThan(0);
    // 16 KB limit, plus the headers and at most one socket read past it.
    expect(readWhenAnswered).toBeLessThan(16 * 1024 + 70 * 1024);
  });
});
