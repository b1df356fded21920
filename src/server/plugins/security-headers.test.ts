import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { apiPaths } from '../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../test/built-app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// Every header helmet and we set, as the home page carries it: an error must carry the same.
const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'permissions-policy',
  'strict-transport-security',
];

describe('the headers decided', () => {
  it('framing is refused twice over, consistently: CSP frame-ancestors none and X-Frame-Options DENY', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ url: '/' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('HSTS for this host only, for a year, when PUBLIC_URL is https', async () => {
    t = await buildTestApp({ env: { PUBLIC_URL: 'https://dh.example' } });
    for (const url of ['/', apiPaths.csrf, '/nope']) {
      const res = await t.app.inject({ url });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    }
  });

  it('no HSTS at all when PUBLIC_URL is plain http', async () => {
    t = await buildTestApp({ env: { PUBLIC_URL: 'http://localhost:3000' } });
    for (const url of ['/', apiPaths.csrf, '/nope', '/%']) {
      const res = await t.app.inject({ url });
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('framework errors carry the headers and never echo the request', () => {
  // Each address carries a marker the answer must not repeat.
  const unreadable = ['/%', '/%zz-canary', '/canary-%E0%A4%A', `${apiPaths.visit}/%canary`];
  const accepts = ['text/html,application/xhtml+xml', 'application/json', '*/*'];

  it.each(unreadable.flatMap((url) => accepts.map((accept) => [url, accept] as const)))(
    'GET %s (Accept: %s) is a 400 with every security header',
    async (url, accept) => {
      t = await buildTestApp();
      const home = await t.app.inject({ url: url.startsWith('/api/') ? apiPaths.csrf : '/' });
      const res = await t.app.inject({ url, headers: { accept } });
      expect(res.statusCode).toBe(400);
      for (const name of SECURITY_HEADERS) expect(res.headers[name], name).toBe(home.headers[name]);
      expect(res.body).not.toContain('canary');
      expect(res.body).not.toContain('valid url component');
      if (res.headers['content-type']?.toString().startsWith('application/json')) {
        expect(apiErrorSchema.parse(res.json()).error.code).toBe('bad_request');
      } else {
        // A browser gets the site's not-found page (with its 400), never on an API address.
        expect(url.startsWith('/api/')).toBe(false);
        expect(res.body).toContain('Page not found');
      }
    },
  );

  it('an over-long address and an unknown one get the headers and do not repeat the address either', async () => {
    t = await buildTestApp();
    const home = await t.app.inject({ url: '/' });
    for (const url of [`/canary${'a'.repeat(400)}`, '/canary/nope', '/assets/canary.js', `/canary%00`]) {
      for (const accept of accepts) {
        const res = await t.app.inject({ url, headers: { accept } });
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        for (const name of SECURITY_HEADERS) expect(res.headers[name], `${url} ${name}`).toBe(home.headers[name]);
        expect(res.body, url).not.toContain('canary');
      }
    }
  });
});
