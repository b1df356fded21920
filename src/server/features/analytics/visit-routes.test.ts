import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';

const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
let t: TestApp;

beforeEach(async () => {
  t = await buildTestApp({ env: { TRUST_PROXY: 'true' } });
});
afterEach(() => t.close());

const beacon = (body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: apiPaths.visit,
    headers: {
      'content-type': 'application/json',
      'sec-fetch-site': 'same-origin',
      'user-agent': chrome,
      'x-forwarded-for': '130.149.7.201',
      ...headers,
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function recorded() {
  // Waits for the work after each 204, then writes what it buffered.
  await t.app.jobs.runOnce('visit-flush');
  return t.store.db.selectFrom('visits').selectAll().execute();
}

describe('POST /api/visit', () => {
  it('answers 204 at once and records the visit with its place, referrer host and a visitor hash', async () => {
    const res = await beacon({ p: '/', r: 'https://www.t.co/some/path?q=1', tz: 'Europe/Berlin', l: 'de-DE' });
    expect(res.statusCode).toBe(204);
    expect(res.headers['set-cookie']).toBeUndefined();
    const [visit, ...rest] = await recorded();
    expect(rest).toHaveLength(0);
    expect(visit).toMatchObject({
      path: '/',
      referrer_host: 't.co',
      country: 'DE',
      client_timezone: 'Europe/Berlin',
      language: 'de-DE',
      day: '2026-11-21',
    });
    expect(visit?.visitor_hash).toMatch(/^[\w-]{22}$/);
    for (const field of ['city', 'region', 'loc', 'org', 'postal', 'timezone'] as const)
      expect(visit?.[field]).toBeTruthy();
  });

  it('gives the same visitor the same hash within a day, and a different one for another browser', async () => {
    await beacon({ p: '/' });
    await beacon({ p: '/privacy' });
    await beacon({ p: '/' }, { 'user-agent': chrome.replace('131', '132') });
    const hashes = (await recorded()).map((v) => v.visitor_hash);
    expect(hashes[0]).toBe(hashes[1]);
    expect(hashes[2]).not.toBe(hashes[0]);
  });

  it.each([
    ['Global Privacy Control', { 'sec-gpc': '1' }],
    ['Do Not Track', { dnt: '1' }],
    ['a known bot', { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' }],
    ['a prefetch', { 'sec-purpose': 'prefetch' }],
  ])('does not count %s, but still answers 204', async (_label, headers) => {
    expect((await beacon({ p: '/' }, headers)).statusCode).toBe(204);
    expect(await recorded()).toHaveLength(0);
  });

  it('answers 204 to junk and counts nothing', async () => {
    expect((await beacon('{nope')).statusCode).toBe(204);
    expect((await beacon({ p: 5 })).statusCode).toBe(204);
    expect(await recorded()).toHaveLength(0);
  });

  it('refuses beacons from other sites', async () => {
    expect((await beacon({ p: '/' }, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(204);
    expect(await recorded()).toHaveLength(0);
  });

  it('counts unknown paths as "(other)" and own-site referrers as direct', async () => {
    await beacon({ p: '/wp-admin/evil', r: 'https://dh.example/privacy' });
    const [visit] = await recorded();
    expect(visit).toMatchObject({ path: '(other)', referrer_host: '' });
  });

  it("counts a locale's pages by name, and a page off the list within its locale", async () => {
    for (const p of ['/es/', '/es', '/zh-cn/privacy', '/ar/wp-admin', '/pt-br/unsubscribe']) await beacon({ p });
    expect((await recorded()).map((v) => v.path).sort()).toEqual(
      ['/es/', '/es/', '/zh-cn/privacy', '/ar/(other)', '/pt-br/unsubscribe'].sort(),
    );
  });

  it('records "Unknown" for a private address, and never the address', async () => {
    await beacon({ p: '/' }, { 'x-forwarded-for': '10.1.2.3' });
    const [visit] = await recorded();
    expect(visit).toMatchObject({ city: 'Unknown', country: 'Unknown', org: 'Unknown', loc: 'Unknown' });
    expect(JSON.stringify(visit)).not.toContain('10.1.2.3');
  });
});

describe('API responses', () => {
  it('carry a strict, short CSP and the other security headers', async () => {
    const res = await beacon({ p: '/' });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['permissions-policy']).toContain('camera=()');
  });
});
