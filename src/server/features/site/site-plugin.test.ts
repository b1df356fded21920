import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLocale, locales } from '../../../shared/locales.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { siteContent } from '../../../../content/site-content.ts';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { contentIn, parseSiteContent } from '../../../shared/content-schema.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { buildTestApp, realSiteBuild, type TestApp } from '../../test/built-app.ts';
import { decodedBody, withoutInvite } from '../../test/invite-slot.ts';
import { testClock } from '../../test/test-store.ts';
import { unspokenLocale } from '../../test/locales-kit.ts';

let t: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  t = await buildTestApp();
  app = t.app;
});
afterAll(() => t.close());

describe('GET /', () => {
  it('sends complete prerendered HTML with every section and FAQ answer', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    expect(html).toContain('<title>Diamond Hand (DH)</title>');
    expect(html).toContain('Embrace the Chaos, Hold the Line – Diamond Hand is for the True HODLers!');
    expect(html).toContain('GET READY FOR THE HOTTEST CRYPTO PRESALE OF 2025');
    const asHtml = (text: string) => text.replace(/'/g, '&#x27;').replace(/"/g, '&quot;');
    for (const item of siteContent.faq) {
      expect(html).toContain(asHtml(item.question));
      expect(html).toContain(asHtml(item.answer));
    }
    expect(html).toMatch(/<form[^>]*method="post"/);
    expect(html).toContain('© 2026 Diamond Hand (DH)');
    expect(html).toContain('href="/privacy"');
  });

  it('carries sharing and search metadata built from PUBLIC_URL', async () => {
    const html = (await app.inject({ url: '/' })).body;
    expect(html).toContain('<link rel="canonical" href="https://dh.example/">');
    expect(html).toContain('<meta property="og:image" content="https://dh.example/og-image.png">');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1];
    const faq = JSON.parse(ld ?? '{}') as { '@type': string; mainEntity: { name: string }[] };
    expect(faq['@type']).toBe('FAQPage');
    expect(faq.mainEntity.map((q) => q.name)).toEqual(siteContent.faq.map((q) => q.question));
  });

  it('serves brotli or gzip as asked, with the same bytes inside', async () => {
    const plain = await app.inject({ url: '/', headers: { 'accept-encoding': 'identity' } });
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const gz = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    const refusesBr = await app.inject({ url: '/', headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(refusesBr.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.rawPayload.length).toBeLessThan(14 * 1024);
  });

  it('sets no cookies, so every visitor gets the same cacheable bytes', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('is revalidated, answering 304 to a matching ETag', async () => {
    const first = await app.inject({ url: '/' });
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = String(first.headers.etag);
    const again = await app.inject({ url: '/', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('carries the security headers', async () => {
    const res = await app.inject({ url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['permissions-policy']).toContain('camera=()');
  });

  it('hashes the one inline script, which loads the bundle and the beacon after the first contentful paint', async () => {
    const res = await app.inject({ url: '/' });
    const { createHash } = await import('node:crypto');
    const scripts = [...res.body.matchAll(/<script>(.*?)<\/script>/gs)].map((m) => m[1] ?? '');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^if\("scrollRestoration"in history\)history\.scrollRestoration="manual";/);
    expect(scripts[0]).toContain('getEntriesByName("first-contentful-paint")');
    expect(scripts[0]).toMatch(/\["\/assets\/entry-client-[^"]+\.js","\/assets\/beacon-[^"]+\.js"\]/);
    const hash = createHash('sha256')
      .update(scripts[0] ?? '')
      .digest('base64');
    expect(String(res.headers['content-security-policy'])).toContain(`script-src 'self' 'sha256-${hash}'`);
  });

  it('hashes exactly the inline styles the document carries', async () => {
    const res = await app.inject({ url: '/' });
    const { createHash } = await import('node:crypto');
    const styles = [...res.body.matchAll(/<style>(.*?)<\/style>/gs)].map((m) => m[1] ?? '');
    expect(styles.length).toBe(2);
    for (const css of styles) {
      const hash = createHash('sha256').update(css).digest('base64');
      expect(String(res.headers['content-security-policy'])).toContain(`'sha256-${hash}'`);
    }
  });
});

describe("GET /?invite=CODE (a friend's invite link)", () => {
  const code = 'Ab3_-Zz9Ab3_-Zz9Ab3_-Z';
  it('is the page from memory with the line and the code spliced in, compressed as / is, in every locale', async () => {
    // The first visit starts the compression; until it is done the page goes out as is.
    const first = await app.inject({ url: `/?invite=${code}`, headers: { 'accept-encoding': 'br' } });
    expect(first.statusCode).toBe(200);
    await app.pages.compressInvitePages();
    for (const locale of locales) {
      const home = localePath(locale, pagePaths.home);
      const plain = await app.inject({ url: home, headers: { 'accept-encoding': 'identity' } });
      const sizes: Record<string, number> = {};
      for (const accept of ['br', 'gzip', 'identity', 'gzip, deflate, br']) {
        const res = await app.inject({ url: `${home}?invite=${code}`, headers: { 'accept-encoding': accept } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(res.headers.vary).toContain('Accept-Encoding');
        expect(res.headers.etag).toBeUndefined();
        expect(res.headers['set-cookie']).toBeUndefined();
        expect(res.headers['content-encoding'], `${locale} ${accept}`).toBe(
          accept === 'identity' ? undefined : accept === 'gzip' ? 'gzip' : 'br',
        );
        const html = decodedBody(res);
        expect(html).toContain(messagesFor(locale).referrals.invitedLine);
        expect(html).toContain(`<input type="hidden" name="invite" value="${code}"/>`);
        expect(withoutInvite(html, code)).toBe(plain.body);
        sizes[accept] = res.rawPayload.length;
      }
      // What / costs compressed, within the line's words and a few bytes of splicing.
      const homeBr = await app.inject({ url: home, headers: { 'accept-encoding': 'br' } });
      expect(sizes.br).toBeLessThan(homeBr.rawPayload.length + 400);
    }
  });
});

// The files the build writes (hashed bundles, their precompressed copies, the images): served
// from dist/, so these run on the real build (global-setup.ts makes one when there is none).
describe('assets and site files', () => {
  let app: FastifyInstance;
  let built: TestApp;
  beforeAll(async () => {
    built = await buildTestApp({ build: await realSiteBuild() });
    app = built.app;
  });
  afterAll(() => built.close());

  it('caches hashed assets for a year and serves the precompressed copy', async () => {
    const html = (await app.inject({ url: '/' })).body;
    const script = /"(\/assets\/entry-client-[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toMatch(/^\/assets\/.+\.js$/);
    const res = await app.inject({ url: script ?? '', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-security-policy']).toBeDefined();
  });

  it('revalidates fixed-name files such as the share images, one per language the build can draw', async () => {
    const cards = [];
    // English's at the old address; each other locale whose meta.ts names a font, its own.
    const drawn = locales.filter((l) => l !== defaultLocale && localeInfo[l].shareImageFont !== null);
    for (const url of ['/og-image.png', ...drawn.map((l) => `/og-image-${localeInfo[l].segment}.png`)]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      // PNG header: width and height of the 1200×630 share image.
      expect(res.rawPayload.readUInt32BE(16)).toBe(1200);
      expect(res.rawPayload.readUInt32BE(20)).toBe(630);
      cards.push(res.rawPayload.toString('base64'));
    }
    // Each its own picture, drawn from its language's words: as many pictures as sets of words (a
    // draft copied from another locale, still in its words, draws the same picture).
    const wordsOn = (l: (typeof locales)[number]) =>
      JSON.stringify([messagesFor(l).pageChrome.comingSoon, contentIn(siteContent, l).heroTagline]);
    expect(new Set(cards).size).toBe(new Set([defaultLocale, ...drawn].map(wordsOn)).size);
    expect(cards.length).toBe(1 + drawn.length);
  });

  it('serves robots.txt, sitemap.xml and the web manifest from PUBLIC_URL and the content', async () => {
    const robots = await app.inject({ url: '/robots.txt' });
    expect(robots.body).toContain('Sitemap: https://dh.example/sitemap.xml');
    const sitemap = await app.inject({ url: '/sitemap.xml' });
    expect(sitemap.body).toContain('<loc>https://dh.example/</loc>');
    expect(sitemap.body).toContain('<loc>https://dh.example/privacy</loc>');
    const manifest = JSON.parse((await app.inject({ url: '/site.webmanifest' })).body) as { name: string };
    expect(manifest.name).toBe('Diamond Hand (DH)');
  });

  it('does not expose the build manifest', async () => {
    expect((await app.inject({ url: '/.vite/manifest.json' })).statusCode).toBe(404);
  });
});

describe('unknown paths', () => {
  it('get a 404 page in the site look for browsers', async () => {
    const res = await app.inject({ url: '/no/such/page', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('Page not found');
    expect(res.body).toContain('<meta name="robots" content="noindex">');
    expect(res.headers['content-security-policy']).toBeDefined();
  });

  it('get a JSON error in words for API clients', async () => {
    const res = await app.inject({ method: 'POST', url: '/nope', headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'not_found', message: 'Not found: there is nothing at this address.' },
    });
  });
});

describe('pages over time', () => {
  it('follow the app clock: the footer year turns at midnight UTC on New Year, with a new ETag', async () => {
    const clock = testClock('2026-12-31T23:59:30.000Z');
    const late = await buildTestApp({ clock });
    try {
      const before = await late.app.inject({ url: '/' });
      expect(before.body).toContain('© 2026 Diamond Hand (DH)');
      // The shipped content has no presale date: "Coming Soon", and no countdown island.
      expect(before.body).toContain('<p class="banner-status">Coming Soon</p>');
      expect(before.body).not.toContain('data-island="countdown"');
      clock.advance(30_000);
      const after = await late.app.inject({ url: '/', headers: { 'if-none-match': String(before.headers.etag) } });
      expect(after.statusCode).toBe(200);
      expect(after.body).toContain('© 2027 Diamond Hand (DH)');
    } finally {
      await late.close();
    }
  });
});

describe('a page per locale', () => {
  it('serves each locale at its own address, in its language and direction, naming every translation', async () => {
    // Tags and directions come from the folders (content/messages/folders.test.ts checks them).
    for (const locale of locales) {
      const { tag, dir } = localeInfo[locale];
      for (const path of [pagePaths.home, pagePaths.privacy, pagePaths.terms]) {
        const url = localePath(locale, path);
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        const html = res.body;
        expect(html, url).toContain(`<html lang="${tag}" dir="${dir}">`);
        expect(html, url).toContain(`<link rel="canonical" href="https://dh.example${url}">`);
        expect(html, url).toContain(`<meta property="og:url" content="https://dh.example${url}">`);
        expect(html, url).toContain(`<meta property="og:locale" content="${tag.replace('-', '_')}">`);
        for (const other of locales) {
          const otherUrl = `https://dh.example${localePath(other, path)}`;
          expect(html, url).toContain(`<link rel="alternate" hreflang="${localeInfo[other].tag}" href="${otherUrl}">`);
        }
        expect(html, url).toContain(`<link rel="alternate" hreflang="x-default" href="https://dh.example${path}">`);
        if (locale !== 'en') expect(html, url).not.toContain('Embrace the Chaos');
        // Its own share card, but Chinese's, which the build's font cannot draw (decision 0050).
        const card =
          locale === defaultLocale || localeInfo[locale].shareImageFont === null
            ? '/og-image.png'
            : `/og-image-${localeInfo[locale].segment}.png`;
        expect(html, url).toContain(`<meta property="og:image" content="https://dh.example${card}">`);
        expect(html, url).toContain(`<meta name="twitter:image" content="https://dh.example${card}">`);
      }
    }
  });

  it('moves the slashless home of a locale to its one address, and answers a missing page in its language', async () => {
    const moved = await app.inject({ url: '/es' });
    expect(moved.statusCode).toBe(308);
    expect(moved.headers.location).toBe('/es/');
    const missing = await app.inject({ url: '/zh-cn/nope', headers: { accept: 'text/html' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<html lang="zh-CN" dir="ltr">');
    // Not a locale: an English 404, not a guess.
    const english = await app.inject({ url: '/esp/', headers: { accept: 'text/html' } });
    expect(english.statusCode).toBe(404);
    expect(english.body).toContain('<html lang="en" dir="ltr">');
  });

  it('lists every locale of every indexed page in the sitemap, each with its alternates', async () => {
    const xml = (await app.inject({ url: '/sitemap.xml' })).body;
    const indexed = [pagePaths.home, pagePaths.privacy, pagePaths.terms];
    for (const loc of locales.flatMap((l) => indexed.map((path) => localePath(l, path)))) {
      expect(xml).toContain(`<loc>https://dh.example${loc}</loc>`);
    }
    // Three indexed pages (home, privacy, terms) in every locale.
    expect(xml.match(/<url>/g)).toHaveLength(indexed.length * locales.length);
    expect(xml.match(/hreflang="x-default"/g)).toHaveLength(indexed.length * locales.length);
  });

  it('answers an API error in the language a program asks for, and in English otherwise', async () => {
    const ask = (language?: string) =>
      app.inject({
        method: 'POST',
        url: '/signup',
        headers: {
          'content-type': 'text/plain',
          accept: 'application/json',
          ...(language ? { 'accept-language': language } : {}),
        },
        payload: 'x',
      });
    const spanish = (await ask('es-MX,es;q=0.9')).json<{ error: { message: string } }>().error.message;
    const english = (await ask()).json<{ error: { message: string } }>().error.message;
    const unspoken = (await ask(unspokenLocale)).json<{ error: { message: string } }>().error.message;
    expect(spanish).not.toBe(english);
    expect(unspoken).toBe(english);
  });
});

describe('the presale terms page', () => {
  const asHtml = (text: string) => text.replace(/'/g, '&#x27;').replace(/"/g, '&quot;');
  const { pages, version } = siteContent.presaleTerms;

  it("shows a reviewed locale's own terms, the version, and that no country is excluded", async () => {
    const html = (await app.inject({ url: pagePaths.terms })).body;
    expect(html).toContain(`<title>${asHtml(messagesFor('en').pageChrome.terms.link)} · Diamond Hand (DH)</title>`);
    for (const section of pages.en.sections) for (const p of section.paragraphs) expect(html).toContain(asHtml(p));
    expect(html).toContain(asHtml(messagesFor('en').pageChrome.terms.version({ version })));
    expect(html).toContain(asHtml(messagesFor('en').pageChrome.terms.noneExcluded));
    expect(html).not.toContain('class="draft-notice"');
    // Every page links to it, in its own language.
    expect((await app.inject({ url: '/es/' })).body).toContain('href="/es/terms"');
  });

  it("shows English's terms on a draft locale's page, saying so, and the excluded countries in its own words", async () => {
    const restricted = await buildTestApp({
      content: parseSiteContent({
        ...siteContent,
        presaleTerms: { ...siteContent.presaleTerms, restrictedCountries: ['US', 'CU'] },
      }),
    });
    try {
      for (const locale of locales.filter((l) => !localeInfo[l].review.reviewed)) {
        const html = (await restricted.app.inject({ url: localePath(locale, pagePaths.terms) })).body;
        const words = messagesFor(locale).pageChrome.terms;
        expect(html, locale).toContain(asHtml(words.draft));
        expect(html, locale).toContain(`<div lang="en" dir="ltr"><h1 id="terms-title">${pages.en.title}</h1>`);
        expect(html, locale).not.toContain(asHtml(pages[locale].sections[0]?.paragraphs[0] ?? ''));
        const countries = new Intl.ListFormat(localeInfo[locale].tag, { type: 'conjunction' }).format(
          ['US', 'CU'].map((c) => new Intl.DisplayNames(localeInfo[locale].tag, { type: 'region' }).of(c) ?? c),
        );
        expect(html, locale).toContain(asHtml(words.excluded({ countries })));
      }
      const arabic = (await restricted.app.inject({ url: '/ar/terms' })).body;
      expect(arabic).toContain('<html lang="ar" dir="rtl">');
      expect(arabic).toContain('الولايات المتحدة وكوبا');
    } finally {
      await restricted.close();
    }
  });
});
