import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { testSiteBuild } from '../../test/built-app.ts';
import { testClock } from '../../test/test-store.ts';
import type { SiteBuild } from './site-build.ts';
import { buildSiteFiles } from './site-files.ts';
import { compressed, filled } from './slotted-file.ts';
import { withoutInvite } from '../../test/invite-slot.ts';
import { clockPlugin } from '../../plugins/core.ts';
import { pagesPlugin } from './pages-plugin.ts';
import { siteFeature } from './site-plugin.ts';
import { FastPaths } from '../../lib/fast-paths.ts';

// The pages are rendered once and served from memory; these pin that a page whose words depend
// on the time (the presale countdown, the footer's year) is rendered again exactly when those
// words change, and otherwise keeps its bytes and ETag.

const M = 60_000;
const opensAt = '2026-12-01T20:00:00+02:00'; // 18:00 UTC
const presaleUrl = 'https://presale.example/dh';
const withPresale = parseSiteContent({ ...siteContent, presaleDate: opensAt, presaleUrl });
const shipped = parseSiteContent(siteContent);

let build: SiteBuild;
beforeAll(async () => {
  build = await testSiteBuild();
});

const text = (html: string) => html.replace(/<!-- -->/g, '');
const statusOf = (html: string) => /<p class="banner-status"[^>]*>([^<]*)<\/p>/.exec(text(html))?.[1];

describe('home page without a presale date', () => {
  it('says "Coming Soon", and keeps its bytes while time passes', () => {
    const clock = testClock('2026-11-21T12:00:00.000Z');
    const files = buildSiteFiles({ build, content: shipped, publicUrl: 'https://dh.example', clock });
    const first = files.pages.home;
    expect(statusOf(first.raw.toString())).toBe('Coming Soon');
    expect(first.raw.toString()).not.toContain('data-island="countdown"');
    clock.advance(36 * 60 * M);
    expect(files.pages.home).toBe(first);
  });

  it('renders again when the footer year turns, and only then', () => {
    const clock = testClock('2026-12-31T23:59:00.000Z');
    const files = buildSiteFiles({ build, content: shipped, publicUrl: 'https://dh.example', clock });
    const home = files.pages.home;
    const privacy = files.pages.privacy;
    expect(home.raw.toString()).toContain('© 2026 Diamond Hand (DH)');
    clock.advance(M);
    expect(files.pages.home.raw.toString()).toContain('© 2027 Diamond Hand (DH)');
    expect(files.pages.home.etag).not.toBe(home.etag);
    expect(files.pages.privacy.raw.toString()).toContain('© 2027 Diamond Hand (DH)');
    expect(files.pages.privacy.etag).not.toBe(privacy.etag);
  });
});

describe('home page counting down to the presale', () => {
  const files = (start: string) => {
    const clock = testClock(start);
    return { clock, files: buildSiteFiles({ build, content: withPresale, publicUrl: 'https://dh.example', clock }) };
  };

  it('before: reads the time left to the minute, with the clock face and the hidden link', () => {
    const { files: f } = files('2026-11-19T14:55:30.000Z');
    const html = text(f.pages.home.raw.toString());
    expect(statusOf(html)).toBe('Presale opens in 12 days, 3 hours and 5 minutes');
    expect(html).toContain('aria-live="polite"');
    expect(html).toMatch(/<p class="countdown-clock" aria-hidden="true">/);
    expect(html).toMatch(/data-countdown="days">12</);
    expect(html).toMatch(/data-countdown="hours">03</);
    expect(html).toMatch(/data-countdown="minutes">04</);
    expect(html).toMatch(/data-countdown="seconds">30</);
    expect(html).toContain(`<p class="presale-open" hidden=""><a class="button button-primary" href="${presaleUrl}">`);
    expect(html).not.toContain('<p class="banner-status">Coming Soon</p>');
  });

  it('renders again when the sentence changes, at most once a minute, and keeps its ETag in between', () => {
    const { clock, files: f } = files('2026-12-01T17:50:00.000Z');
    const first = f.pages.home;
    expect(statusOf(first.raw.toString())).toBe('Presale opens in 10 minutes');
    clock.advance(30_000);
    expect(f.pages.home).toBe(first);
    clock.advance(29_999);
    expect(f.pages.home).toBe(first);
    clock.advance(1);
    const second = f.pages.home;
    expect(second).not.toBe(first);
    expect(second.etag).not.toBe(first.etag);
    expect(statusOf(second.raw.toString())).toBe('Presale opens in 9 minutes');
  });

  it("keeps the invite link's page in step: the same words as the home page, re-rendered with it", async () => {
    const { clock, files: f } = files('2026-12-01T17:50:00.000Z');
    const code = 'Ab3_-Zz9Ab3_-Zz9Ab3_-Z';
    const first = f.in('en').homeWithInvite;
    await compressed(first);
    expect(withoutInvite(filled(first, code).toString(), code)).toBe(f.pages.home.raw.toString());
    clock.advance(30_000);
    expect(f.in('en').homeWithInvite).toBe(first);
    clock.advance(30_000);
    const second = f.in('en').homeWithInvite;
    expect(second).not.toBe(first);
    expect(withoutInvite(filled(second, code).toString(), code)).toBe(f.pages.home.raw.toString());
    expect(statusOf(filled(second, code).toString())).toBe('Presale opens in 9 minutes');
    await compressed(second);
    expect(second.br).toBeDefined();
    expect(second.gzip).toBeDefined();
  });

  it('at the moment: says it is open and shows the link; the clock face is hidden', () => {
    const { files: f } = files('2026-12-01T18:00:00.000Z');
    const html = text(f.pages.home.raw.toString());
    expect(statusOf(html)).toBe('The presale is open');
    expect(html).toContain('<p class="countdown-clock" aria-hidden="true" hidden="">');
    expect(html).toContain(`<p class="presale-open"><a class="button button-primary" href="${presaleUrl}">`);
  });

  it('after the moment: still open, and the same bytes as at the moment (nothing left to change)', () => {
    const { clock, files: f } = files('2026-12-01T18:00:00.000Z');
    const atOpen = f.pages.home;
    clock.advance(3 * 24 * 60 * M);
    expect(f.pages.home).toBe(atOpen);
    expect(statusOf(f.pages.home.raw.toString())).toBe('The presale is open');
  });

  it('a sign-up answered without JavaScript shows the countdown as it is then', () => {
    const { files: f } = files('2026-12-01T17:58:30.000Z');
    const html = f.renderHomeWithSignup({ status: 'success', message: 'Thanks' });
    expect(statusOf(html)).toBe('Presale opens in 2 minutes');
  });
});

describe('over HTTP', () => {
  let app: FastifyInstance;
  const clock = testClock('2026-12-01T17:58:00.000Z');
  beforeAll(async () => {
    // The app's own site plugins, around content with a presale date and a clock the test sets.
    app = Fastify();
    await app.register(clockPlugin, { clock });
    await app.register(pagesPlugin, { build, content: withPresale, publicUrl: 'https://dh.example' });
    await app.register(siteFeature, { build, fastPaths: new FastPaths(), headersFor: () => ({}) });
  });
  afterAll(() => app.close());

  it('answers 304 while the page reads the same, and the new page once it changes', async () => {
    const first = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    const etag = String(first.headers.etag);
    clock.advance(59_000);
    const same = await app.inject({ url: '/', headers: { 'if-none-match': etag } });
    expect(same.statusCode).toBe(304);
    clock.advance(1000);
    const changed = await app.inject({ url: '/', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(statusOf(changed.body)).toBe('Presale opens in 1 minute');
    clock.advance(M);
    expect(statusOf((await app.inject({ url: '/' })).body)).toBe('The presale is open');
  });
});
