import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { inviteCodeIn, joinFrom, referralTestEnv } from '../../test/referral-kit.ts';
import { postSignupForm, withCookies } from '../../test/visitor.ts';

// A visitor arriving through a friend's invite link: the page as usual, one line more, the code in
// the form (JavaScript off too); everyone else keeps the page from memory, cacheable and cookie-free.

describe('arriving through an invite link', () => {
  let t: TestApp;
  let mailer: ReturnType<typeof memoryMailer>;
  let code: string;
  beforeEach(async () => {
    mailer = memoryMailer();
    t = await buildTestApp({ mailer, env: referralTestEnv });
    code = inviteCodeIn((await joinFrom(t, mailer, { email: 'ada@example.com', ip: '203.0.113.1' })).body);
  });
  afterEach(() => t.close());

  it('shows the line and carries the code, rendered for this request and kept by no shared cache', async () => {
    const res = await t.app.inject({ url: `/?invite=${code}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toContain(messagesFor('en').referrals.invitedLine);
    expect(res.body).toContain(`<input type="hidden" name="invite" value="${code}"/>`);
    const spanish = await t.app.inject({ url: `/es/?invite=${code}` });
    expect(spanish.body).toContain(messagesFor('es').referrals.invitedLine);
    expect(spanish.body).toContain('<html lang="es"');
  });

  it('keeps the page from memory for everyone else: same bytes, ETag and caching, no code anywhere', async () => {
    const plain = await t.app.inject({ url: '/' });
    // Seen through an invite link first: nothing of it may stick to the page from memory.
    await t.app.inject({ url: `/?invite=${code}` });
    for (const url of ['/', '/?invite=bad', `/?invite=${code}x`, `/?invite=${code}&invite=${code}`, '/?utm_source=x']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe(plain.headers['cache-control']);
      expect(res.headers.etag, url).toBe(plain.headers.etag);
      expect(res.headers['set-cookie'], url).toBeUndefined();
      expect(res.body, url).toBe(plain.body);
      expect(res.body).not.toContain(code);
      expect(res.body).not.toContain('name="invite"');
    }
    expect(plain.headers.etag).toBeDefined();
  });

  it('carries the code through the no-JavaScript form, its "one more press" page and all', async () => {
    const fields = { name: 'Bob', email: 'bob@example.com', locale: 'en', invite: code };
    const headers = { 'x-forwarded-for': '203.0.113.2' };
    const first = await postSignupForm(t.app, { cookie: '', xsrf: '' }, fields, headers);
    expect(first.statusCode).toBe(428);
    expect(first.body).toContain(`<input type="hidden" name="invite" value="${code}"/>`);
    const visitor = withCookies({ cookie: '', xsrf: '' }, first);
    t.clock.advance(4000);
    const second = await postSignupForm(t.app, visitor, fields, headers);
    expect(second.statusCode).toBe(200);
    const rows = await t.store.db.selectFrom('referral_attributions').select(['status', 'invited_domain']).execute();
    expect(rows).toEqual([{ status: 'pending', invited_domain: 'example.com' }]);
  });

  it('does not put a mangled code back into the form', async () => {
    const res = await postSignupForm(
      t.app,
      { cookie: '', xsrf: '' },
      { name: 'Bob', email: 'bob@example.com', invite: '"><script>x</script>' },
    );
    expect(res.statusCode).toBe(428);
    expect(res.body).not.toContain('name="invite"');
    expect(res.body).not.toContain('<script>x');
  });
});
