import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { locales } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { inviteCodeIn, inviteCountIn, invitePagePathIn, joinFrom, referralTestEnv } from '../../test/referral-kit.ts';
import { invitePageUrl } from './invite-links.ts';

// A person's invite page, by the signed link in their emails: the link's signature is the only
// authority, a forged, tampered or replayed-after-erasure link gets a page in words, and opening
// the page changes nothing. docs/decisions/0060-referral-invites.md

const words = messagesFor('en').referrals;
const snapshot = (t: TestApp) =>
  Promise.all([
    t.store.db.selectFrom('referral_codes').selectAll().orderBy('subscriber_id').execute(),
    t.store.db.selectFrom('referral_attributions').selectAll().orderBy('invited_id').execute(),
    t.store.db.selectFrom('subscribers').selectAll().orderBy('id').execute(),
  ]);

describe('the invite page', () => {
  let t: TestApp;
  let mailer: ReturnType<typeof memoryMailer>;
  let page: string;
  beforeEach(async () => {
    mailer = memoryMailer();
    t = await buildTestApp({ mailer, env: referralTestEnv });
    const a = await joinFrom(t, mailer, { email: 'ada@example.com', ip: '203.0.113.1' });
    await joinFrom(t, mailer, { email: 'bob@example.com', ip: '203.0.113.2', invite: inviteCodeIn(a.body) });
    page = invitePagePathIn(a.body);
  });
  afterEach(() => t.close());

  it('shows the link, the count, share links and what invites earn, and is kept by no cache', async () => {
    const res = await t.app.inject({ url: page });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(inviteCountIn(res.body)).toBe(1);
    expect(res.body).toContain(words.page.title);
    expect(res.body).toMatch(
      /href="https:\/\/twitter\.com\/intent\/tweet\?[^"]*url=https%3A%2F%2Fdh\.example%2F%3Finvite%3D/,
    );
    expect(res.body).toContain('href="https://t.me/share/url?');
    expect(res.body).toContain('href="mailto:?');
    expect(res.body).toContain('The 100 people with the most confirmed invites');
    // The link is in a plain input, selectable without script; no third-party script on the page.
    expect(res.body).toMatch(/<input[^>]*readonly=""[^>]*value="https:\/\/dh\.example\/\?invite=/i);
    expect(res.body).not.toMatch(/<script[^>]+src="https?:/);
  });

  it.each(locales)('is in %s at its address, in its words and direction', async (locale) => {
    const res = await t.app.inject({ url: `${localePath(locale, pagePaths.invite)}?${page.split('?')[1] ?? ''}` });
    expect(res.statusCode).toBe(200);
    const { tag, dir } = localeInfo[locale];
    expect(res.body).toContain(`<html lang="${tag}" dir="${dir}">`);
    const own = messagesFor(locale).referrals;
    for (const text of [own.page.title, own.blockHeading, own.copy, own.count({ count: 1 }), own.rewardHeading])
      expect(res.body).toContain(escapeHtml(text));
  });

  it('reads right to left in Arabic, in Arabic words', async () => {
    const res = await t.app.inject({ url: `/ar${page}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="ar" dir="rtl">');
    expect(res.body).toContain(messagesFor('ar').referrals.page.title);
    expect(res.body).toContain('https://dh.example/ar/?invite=');
  });

  it('refuses a forged or tampered signature, or another purpose’s, with a page in words', async () => {
    const url = new URL(page, 'https://dh.example');
    const id = url.searchParams.get('id') ?? '';
    const sig = url.searchParams.get('sig') ?? '';
    const unsubscribeSig = t.app.keys.sign('unsubscribe', id);
    const other = await t.store.db
      .selectFrom('subscribers')
      .select('id')
      .where('email', '=', 'bob@example.com')
      .executeTakeFirstOrThrow();
    for (const query of [
      `id=${id}&sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
      `id=${other.id}&sig=${sig}`,
      `id=${id}&sig=${unsubscribeSig}`,
      `id=${id}`,
      '',
    ]) {
      const res = await t.app.inject({ url: `/invite?${query}` });
      expect(res.statusCode, query).toBe(404);
      expect(res.body).toContain(words.brokenLink.title);
      expect(res.body).not.toContain('?invite=');
    }
    const twice = await t.app.inject({ url: `${page}&id=again` });
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain(words.brokenLink.title);
  });

  it('refuses a link replayed after its person was erased, in words', async () => {
    await t.store.db.deleteFrom('subscribers').where('email', '=', 'ada@example.com').execute();
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url: page });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain(words.brokenLink.message);
    }
  });

  it('changes nothing when opened; a person confirmed before invites gets a button, and only the press makes a code', async () => {
    const before = await snapshot(t);
    for (const method of ['GET', 'HEAD'] as const)
      expect((await t.app.inject({ method, url: page })).statusCode).toBe(200);
    expect(await snapshot(t)).toEqual(before);

    const old = await insertSubscriber(t.store.db, 'old@example.com', { status: 'confirmed' });
    const url = invitePageUrl('https://dh.example', t.app.keys, old).replace('https://dh.example', '');
    const opened = await t.app.inject({ url });
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain(words.makeLink.button);
    expect(opened.body).not.toContain('?invite=');
    expect(
      await t.store.db.selectFrom('referral_codes').select('code').where('subscriber_id', '=', old).execute(),
    ).toEqual([]);
    const pressed = await t.app.inject({ method: 'POST', url });
    expect(pressed.statusCode).toBe(200);
    expect(inviteCountIn(pressed.body)).toBe(0);
    const code = inviteCodeIn(pressed.body);
    // Pressing again keeps the same code.
    expect(inviteCodeIn((await t.app.inject({ method: 'POST', url })).body)).toBe(code);
  });

  it('tells a person who has not confirmed to confirm first, and makes nothing', async () => {
    const pending = await insertSubscriber(t.store.db, 'pen@example.com', { status: 'pending' });
    const url = invitePageUrl('https://dh.example', t.app.keys, pending).replace('https://dh.example', '');
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(words.notConfirmed.title);
    }
    expect(
      await t.store.db.selectFrom('referral_codes').select('code').where('subscriber_id', '=', pending).execute(),
    ).toEqual([]);
  });
});
