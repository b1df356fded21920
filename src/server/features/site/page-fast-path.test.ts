import { describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { locales } from '../../../shared/locales.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { ask, header, serveAppTwice } from '../../test/fast-path-harness.ts';
import { testClock } from '../../test/test-store.ts';

// The home pages' fast path (page-fast-path.ts) against the route itself, over real HTTP
// (fast-path-harness.ts): the same status, the same headers in the same order, the same bytes, and
// the fast path (not Fastify behind it) answering what it takes; everything else left to the route.

// A presale date two minutes after the clock starts: the countdown's words change as it passes.
const clock = testClock('2026-12-01T17:58:00.000Z');
const withPresale = parseSiteContent({
  ...siteContent,
  presaleDate: '2026-12-01T18:00:00.000Z',
  presaleUrl: 'https://presale.example/dh',
});

describe('the home pages fast path answers exactly as the route', () => {
  const served = serveAppTwice({ content: withPresale, clock, env: { LOG_LEVEL: 'info' } });
  const { fastLines } = served;

  const both = async (path: string, opts: Parameters<typeof ask>[2] = {}) => {
    const before = fastLines().length;
    const fast = await ask(served.fastPort, path, opts);
    const viaFast = fastLines().length > before;
    const route = await ask(served.routePort, path, opts);
    expect(fast).toEqual(route);
    return { answer: fast, viaFast };
  };
  const homes = locales.map((l) => localePath(l, pagePaths.home));
  const codings = ['br', 'gzip', 'gzip, deflate, br', 'br;q=0, gzip;q=0', '*', 'identity', ''];

  it('every locale’s home page, in every coding the visitor asks for, and 304 for its own ETag', async () => {
    for (const home of homes) {
      for (const coding of codings) {
        const { answer, viaFast } = await both(home, { headers: coding ? { 'accept-encoding': coding } : {} });
        expect(viaFast, `GET ${home} (${coding || 'no Accept-Encoding'}) by the fast path`).toBe(true);
        expect(answer.status).toBe(200);
        expect(header(answer, 'content-security-policy')).toBeDefined();
        expect(header(answer, 'set-cookie')).toBeUndefined();
      }
      const etag = header((await both(home)).answer, 'etag') ?? '';
      const same = await both(home, { headers: { 'if-none-match': etag, 'accept-encoding': 'br' } });
      expect([same.answer.status, same.viaFast]).toEqual([304, true]);
      const other = await both(home, { headers: { 'if-none-match': '"something-else"' } });
      expect([other.answer.status, other.viaFast]).toEqual([200, true]);
    }
  });

  it('the page as it reads now: a new ETag and new words once the countdown’s change', async () => {
    const before = header((await both('/', { headers: { 'accept-encoding': 'br' } })).answer, 'etag');
    clock.advance(3 * 60_000);
    const { answer, viaFast } = await both('/');
    expect(viaFast).toBe(true);
    expect(header(answer, 'etag')).not.toBe(before);
    // The old ETag no longer matches: the page, not a 304.
    const stale = await both('/', { headers: { 'if-none-match': before ?? '' } });
    expect([stale.answer.status, stale.viaFast]).toEqual([200, true]);
  });

  it('leaves the route an invite link, any other query, HEAD, a body and a near-miss path', async () => {
    for (const [path, opts] of [
      ['/?invite=AAAAAAAAAAAAAAAAAAAAAA', {}],
      ['/?utm_source=x', {}],
      ['/', { method: 'HEAD' }],
      ['/', { method: 'GET', body: 'x' }],
      ['/es', {}],
      ['//', {}],
      ['/index.html', {}],
    ] as const) {
      const { viaFast } = await both(path, opts);
      expect(viaFast, `${opts.method ?? 'GET'} ${path} left to the route`).toBe(false);
    }
  });
});
