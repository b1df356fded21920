import { signupAnswers } from '../../../../content/messages/en/signup.ts';
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { postSignupForm, postSignupJson, visitPage, withCookies } from '../../test/visitor.ts';

// Rotating APP_SECRET must break nothing that lasts: every unsubscribe link ever sent keeps
// working, and a returning visitor whose cookies were signed with an earlier key signs up
// normally, with and without JavaScript (docs/decisions/0011-links-keys-and-fields.md).

const KEY_A = 'a'.repeat(40);
const KEY_B = 'b'.repeat(40);

/** An unsubscribe link exactly as the code before the link-key ring made it: HMAC of `unsubscribe:<id>` keyed with the app secret. */
const oldUnsubscribePath = (secret: string, id: string) =>
  `/unsubscribe?id=${id}&sig=${createHmac('sha256', secret).update(`unsubscribe:${id}`).digest('base64url')}`;

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`key rotation on ${label}`, () => {
    let store: TestStore;
    const apps: TestApp[] = [];
    const start = async (env: Record<string, string>) => {
      const t = await buildTestApp({ store, env });
      apps.push(t);
      return t;
    };

    beforeEach(async () => {
      store = await openTestStore(dialect);
    });
    afterEach(async () => {
      for (const t of apps.splice(0)) await t.close();
      await store.destroy();
    });

    async function signUp(t: TestApp, email: string): Promise<string> {
      const visitor = await visitPage(t.app);
      t.clock.advance(5000);
      expect((await postSignupJson(t.app, visitor, { name: 'Rosa', email })).statusCode).toBe(200);
      const row = await store.db
        .selectFrom('subscribers')
        .select('id')
        .where('email_key', '=', email)
        .executeTakeFirstOrThrow();
      return row.id;
    }
    const statusOf = async (id: string) =>
      (await store.db.selectFrom('subscribers').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    const oneClick = (t: TestApp, path: string) =>
      t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });

    it('an unsubscribe link sent before the upgrade (signed with APP_SECRET) still works after APP_SECRET changes', async () => {
      const first = await start({ APP_SECRET: KEY_A });
      const id = await signUp(first, 'rosa@example.com');
      await first.close();
      apps.length = 0;

      const rotated = await start({ APP_SECRET: KEY_B });
      const page = await rotated.app.inject({ url: oldUnsubscribePath(KEY_A, id) });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Unsubscribe me');
      expect((await oneClick(rotated, oldUnsubscribePath(KEY_A, id))).statusCode).toBe(200);
      expect(await statusOf(id)).toBe('unsubscribed');
    });

    it('so does one signed with the generated key kept in the database, when APP_SECRET was never set', async () => {
      // What the code before the ring left behind: its generated key in `settings`.
      await store.db.insertInto('settings').values({ key: 'app_secret', value: KEY_A }).execute();
      const first = await start({});
      const id = await signUp(first, 'generated@example.com');
      const rotated = await start({ APP_SECRET: KEY_B });
      expect((await oneClick(rotated, oldUnsubscribePath(KEY_A, id))).statusCode).toBe(200);
      expect(await statusOf(id)).toBe('unsubscribed');
    });

    it('links made now are signed with the ring, not APP_SECRET, and survive any change of it', async () => {
      const first = await start({ APP_SECRET: KEY_A });
      const id = await signUp(first, 'new@example.com');
      const sig = first.app.keys.sign('unsubscribe', id);
      expect(sig).not.toBe(new URL(`https://x${oldUnsubscribePath(KEY_A, id)}`).searchParams.get('sig'));
      const rotated = await start({ APP_SECRET: KEY_B });
      expect(rotated.app.keys.sign('unsubscribe', id)).toBe(sig);
      expect((await oneClick(rotated, `/unsubscribe?id=${id}&sig=${sig}`)).statusCode).toBe(200);
      expect(await statusOf(id)).toBe('unsubscribed');
      // A later APP_SECRET never becomes a link key: a link "signed" with it is refused.
      const forged = await rotated.app.inject({ url: oldUnsubscribePath(KEY_B, id) });
      expect(forged.statusCode).toBe(404);
    });

    it('with JavaScript: an old cookie jar is replaced at /api/csrf and the sign-up goes through', async () => {
      const before = await start({ APP_SECRET: KEY_A });
      const oldJar = await visitPage(before.app);
      const rotated = await start({ APP_SECRET: KEY_B });
      // The old token fails (the page's helper then asks for fresh cookies and sends once more).
      const refused = await postSignupJson(rotated.app, oldJar, { name: 'Old Jar', email: 'jar@example.com' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { code: 'csrf' } });
      // What the page does on load and after that refusal: /api/csrf with the cookies it has.
      const renewed = await visitPage(rotated.app, oldJar);
      expect(renewed.cookie).not.toBe(oldJar.cookie);
      rotated.clock.advance(5000);
      const res = await postSignupJson(rotated.app, renewed, { name: 'Old Jar', email: 'jar@example.com' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: signupAnswers.success });
      expect(await store.db.selectFrom('subscribers').select('email').execute()).toEqual([
        { email: 'jar@example.com' },
      ]);
    });

    it('without JavaScript: an old cookie jar gets one "press once more", then the sign-up goes through', async () => {
      const before = await start({ APP_SECRET: KEY_A });
      const oldJar = await visitPage(before.app);
      before.clock.advance(5000);
      const rotated = await start({ APP_SECRET: KEY_B });
      const fields = { name: 'No Script', email: 'noscript@example.com', comment: '' };
      const first = await postSignupForm(rotated.app, oldJar, fields);
      expect(first.statusCode).toBe(428);
      expect(first.body).toContain('please press Submit once more');
      const second = await postSignupForm(rotated.app, withCookies(oldJar, first), fields);
      expect(second.statusCode).toBe(200);
      expect(second.body).toContain(signupAnswers.success);
      expect(await store.db.selectFrom('subscribers').select('email').execute()).toEqual([
        { email: 'noscript@example.com' },
      ]);
    });

    it('a ring "new,old" accepts the old cookies at once and re-signs them with the new key', async () => {
      const before = await start({ APP_SECRET: KEY_A });
      const oldJar = await visitPage(before.app);
      const both = await start({ APP_SECRET: `${KEY_B}, ${KEY_A}` });
      both.clock.advance(5000);
      expect((await postSignupJson(both.app, oldJar, { name: 'Ring', email: 'ring@example.com' })).statusCode).toBe(
        200,
      );
      const resigned = await visitPage(both.app, oldJar);
      // Once the old key is dropped, the re-signed jar still works: it is signed with the new one.
      const onlyNew = await start({ APP_SECRET: KEY_B });
      onlyNew.clock.advance(5000);
      expect(
        (await postSignupJson(onlyNew.app, resigned, { name: 'Ring', email: 'ring2@example.com' })).statusCode,
      ).toBe(200);
      const plain = await postSignupForm(onlyNew.app, resigned, { name: 'Ring', email: 'ring3@example.com' });
      expect(plain.statusCode).toBe(200);
    });
  });
}

describe('visitor cookies follow PUBLIC_URL', () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  type SetCookie = { name: string; secure?: boolean; path?: string; domain?: string; httpOnly?: boolean };
  const cookiesOf = async (env: Record<string, string>, headers: Record<string, string> = {}) => {
    t = await buildTestApp({ env });
    const res = await t.app.inject({ url: '/api/csrf', headers });
    return res.cookies as SetCookie[];
  };

  it('over https: __Host- names, Secure, Path=/, no Domain, even when the request itself looks like http (a TLS proxy without TRUST_PROXY)', async () => {
    const cookies = await cookiesOf({ PUBLIC_URL: 'https://dh.example' }, { 'x-forwarded-proto': 'https' });
    expect(cookies.map((c) => c.name).sort()).toEqual(['__Host-XSRF-TOKEN', '__Host-dh_csrf', '__Host-dh_t']);
    for (const c of cookies) expect(c).toMatchObject({ secure: true, path: '/' });
    for (const c of cookies) expect(c.domain).toBeUndefined();
    expect(cookies.find((c) => c.name === '__Host-XSRF-TOKEN')?.httpOnly).toBeFalsy();
    expect(cookies.find((c) => c.name === '__Host-dh_csrf')?.httpOnly).toBe(true);
  });

  it('over plain http (development, the browser tests): plain names, not Secure, so the browser keeps them', async () => {
    const cookies = await cookiesOf({ PUBLIC_URL: 'http://127.0.0.1:4173' });
    expect(cookies.map((c) => c.name).sort()).toEqual(['XSRF-TOKEN', '_csrf', 'dh_t']);
    for (const c of cookies) expect(c.secure).toBeFalsy();
  });

  it('on https, the unprefixed cookies of before are cleared', async () => {
    t = await buildTestApp({ env: { PUBLIC_URL: 'https://dh.example' } });
    const res = await t.app.inject({ url: '/api/csrf', headers: { cookie: 'XSRF-TOKEN=x; _csrf=y; dh_t=z' } });
    const cleared = (res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]).filter(
      (c) => !c.name.startsWith('__Host-'),
    );
    expect(cleared.map((c) => c.name).sort()).toEqual(['XSRF-TOKEN', '_csrf', 'dh_t']);
    for (const c of cleared) expect(c.value).toBe('');
  });
});
