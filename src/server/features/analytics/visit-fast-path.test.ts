import type http from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiPaths } from '../../../shared/paths.ts';
import { ask, serveAppTwice, type AskOptions } from '../../test/fast-path-harness.ts';
import { sampleOf } from '../../test/prometheus-text.ts';
import { securityHeadersFor } from '../../plugins/security-headers.ts';
import { visitFastPath } from './visit-fast-path.ts';
import type { VisitIntake } from './visit-intake.ts';

// The beacon's fast path (decision 0052) against the route itself, over real HTTP: each beacon is
// sent to both, and both must give the same answer (status, headers in order, bytes) and the same
// effect: the same visit rows, or the same drop counted under the same reason.

const TOKEN = 'metrics-token-for-the-visit-fast-path-test';
const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const beaconHeaders = {
  'content-type': 'application/json',
  'sec-fetch-site': 'same-origin',
  'user-agent': chrome,
};

describe('the beacon fast path answers and counts exactly as the route', () => {
  const served = serveAppTwice({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'info', METRICS_TOKEN: TOKEN } });
  const { fastLines, scrape } = served;
  let client = 0;

  const dropsOf = (text: string, reason: string) => sampleOf(text, 'dh_beacons_dropped_total', { reason }) ?? 0;
  /** Every visit row, written out: the work after each 204 awaited, then the buffer flushed. */
  const visits = async () => {
    await served.t.app.jobs.runOnce('visit-flush');
    return served.t.store.db.selectFrom('visits').selectAll().execute();
  };

  /**
   * Sends the same beacon to the fast path's server and to the route's, from the same client (a
   * new one each call, so no budget runs out), and returns both answers, the rows each wrote and
   * the drops each counted by reason.
   */
  const both = async (opts: AskOptions, path: string = apiPaths.visit) => {
    const address = `130.149.${Math.floor(++client / 250)}.${(client % 250) + 1}`;
    const withClient = { ...opts, headers: { 'x-forwarded-for': address, ...opts.headers } };
    const result = [];
    for (const port of [served.fastPort, served.routePort]) {
      await visits();
      await served.t.store.db.deleteFrom('visits').execute();
      const before = { lines: fastLines().length, metrics: await scrape() };
      const answer = await ask(port, path, withClient);
      const rows = await visits();
      const metrics = await scrape();
      const drops = Object.fromEntries(
        ['invalid', 'bot', 'dnt', 'gpc', 'prefetch', 'over-budget']
          .map((reason) => [reason, dropsOf(metrics, reason) - dropsOf(before.metrics, reason)])
          .filter(([, n]) => n !== 0),
      );
      result.push({ answer, rows, drops, viaFast: fastLines().length > before.lines });
    }
    const [fast, route] = result as [(typeof result)[0], (typeof result)[0]];
    expect(fast.answer, JSON.stringify(opts.body ?? null)).toEqual(route.answer);
    expect(fast.rows).toEqual(route.rows);
    expect(fast.drops).toEqual(route.drops);
    expect(route.viaFast).toBe(false);
    return { answer: fast.answer, rows: fast.rows, drops: fast.drops, viaFast: fast.viaFast };
  };

  it('a beacon from our own page: 204, then one visit with its place, referrer host and hash', async () => {
    const body = JSON.stringify({ p: '/es/', r: 'https://www.t.co/x?y=1', tz: 'Europe/Berlin', l: 'de-DE', extra: 1 });
    const { answer, rows, drops, viaFast } = await both({ method: 'POST', headers: beaconHeaders, body });
    expect(viaFast).toBe(true);
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    expect(answer.headers).toContainEqual(['cache-control', 'no-store']);
    expect(answer.headers).toContainEqual(['content-security-policy', "default-src 'none'; frame-ancestors 'none'"]);
    expect(answer.headers.map(([name]) => name)).not.toContain('set-cookie');
    expect(drops).toEqual({});
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ path: '/es/', referrer_host: 't.co', country: 'DE', language: 'de-DE' });
  });

  it('one the person asked not to be counted, a bot or a prefetch: 204, and the same reason counted', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'sec-gpc': '1' }, 'gpc'],
      [{ dnt: '1' }, 'dnt'],
      [{ 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' }, 'bot'],
      [{ 'sec-purpose': 'prefetch;prerender' }, 'prefetch'],
    ];
    for (const [extra, reason] of cases) {
      const { answer, rows, drops, viaFast } = await both({
        method: 'POST',
        headers: { ...beaconHeaders, ...extra },
        body: JSON.stringify({ p: '/' }),
      });
      expect(viaFast, reason).toBe(true);
      expect(answer.status).toBe(204);
      expect(rows).toEqual([]);
      expect(drops).toEqual({ [reason]: 1 });
    }
  });

  it('a body the route would refuse: 204, nothing written, counted as invalid', async () => {
    const bodies = [
      '',
      '{nope',
      '{"p":5}',
      '[]',
      'null',
      JSON.stringify({ p: 'x'.repeat(513) }),
      '{"p":"/","__proto__":{"polluted":true}}',
      '{"p":"/","constructor":{"prototype":{"polluted":true}}}',
      '\u00ff{"p":"/"}',
    ];
    for (const body of bodies) {
      const { answer, rows, drops, viaFast } = await both({ method: 'POST', headers: beaconHeaders, body });
      expect(viaFast, body).toBe(true);
      expect(answer.status).toBe(204);
      expect(rows).toEqual([]);
      expect(drops, body).toEqual({ invalid: 1 });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves the rest to the route, which answers and counts as before', async () => {
    const body = JSON.stringify({ p: '/' });
    const others: [string, AskOptions, string?][] = [
      ['cross-site', { method: 'POST', headers: { ...beaconHeaders, 'sec-fetch-site': 'cross-site' }, body }],
      // An older browser: no Sec-Fetch-Site, its Origin ours.
      [
        'Origin only',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': chrome, origin: 'https://dh.example' },
          body,
        },
      ],
      [
        'a charset',
        { method: 'POST', headers: { ...beaconHeaders, 'content-type': 'application/json; charset=utf-8' }, body },
      ],
      ['plain text', { method: 'POST', headers: { ...beaconHeaders, 'content-type': 'text/plain' }, body }],
      ['chunked', { method: 'POST', headers: beaconHeaders, body, chunked: true }],
      [
        'over the limit',
        { method: 'POST', headers: beaconHeaders, body: JSON.stringify({ p: '/', r: 'x'.repeat(4096) }) },
      ],
      ['a query string', { method: 'POST', headers: beaconHeaders, body }, `${apiPaths.visit}?x=1`],
      ['GET', { headers: beaconHeaders }],
      // Other spellings of the path, and of the one header the fast path trusts.
      ['a trailing slash', { method: 'POST', headers: beaconHeaders, body }, `${apiPaths.visit}/`],
      ['capitals', { method: 'POST', headers: beaconHeaders, body }, apiPaths.visit.toUpperCase()],
      ['an encoded letter', { method: 'POST', headers: beaconHeaders, body }, apiPaths.visit.replace('v', '%76')],
      ['a doubled slash', { method: 'POST', headers: beaconHeaders, body }, `/${apiPaths.visit}`],
      [
        'Sec-Fetch-Site twice',
        { method: 'POST', headers: { ...beaconHeaders, 'sec-fetch-site': ['same-origin', 'cross-site'] }, body },
      ],
    ];
    for (const [label, opts, path] of others) {
      const { answer, viaFast } = await both(opts, path);
      expect(viaFast, label).toBe(false);
      expect(answer.status, label).toBeLessThan(500);
    }
  });

  it('hostile spellings in a beacon are counted alike, never as one of our pages by name', async () => {
    const hostile = [
      { p: '/\u200bes/' }, // an invisible character
      { p: '/\u0435s/' }, // a Cyrillic letter that looks like "e"
      { p: '/%65s/' }, // percent-encoded
      { p: '/es/\u0000' },
      { p: '/\u202eprivacy', tz: 'Europe/\u202eBerlin', l: 'en\u200b-GB' },
      { p: '/', r: 'https://xn--80ak6aa92e.com/', tz: '../../../etc', l: '<script>' },
    ];
    for (const beacon of hostile) {
      const { rows, viaFast } = await both({ method: 'POST', headers: beaconHeaders, body: JSON.stringify(beacon) });
      expect(viaFast).toBe(true);
      expect(rows).toHaveLength(1);
      const [row] = rows;
      if (beacon.p !== '/') expect(row?.path, beacon.p).toMatch(/\(other\)$/);
      // Only the characters a zone or a language tag can have are kept.
      expect(row?.client_timezone).toMatch(/^[\w\-/+.]+$/);
      expect(row?.language).toMatch(/^[\w\-/+.]+$/);
    }
  });

  it('whatever the body, both answer and count alike (a property, 60 bodies)', async () => {
    const anyBody = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.json({ maxDepth: 3 }),
      fc
        .record(
          { p: fc.string({ maxLength: 600 }), r: fc.string(), tz: fc.string({ maxLength: 80 }), l: fc.string() },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
    );
    await fc.assert(
      fc.asyncProperty(anyBody, async (body) => {
        const { answer } = await both({ method: 'POST', headers: beaconHeaders, body });
        expect(answer.status).toBe(204);
      }),
      { numRuns: 60 },
    );
  });

  it('beacons from one client racing each other spend its budget once each', async () => {
    // VISIT_RATE_LIMIT's default: 10 counted visits a minute per client.
    await served.t.app.jobs.runOnce('visit-flush');
    await served.t.store.db.deleteFrom('visits').execute();
    const before = await scrape();
    const headers = { ...beaconHeaders, 'x-forwarded-for': '198.51.100.77' };
    const body = JSON.stringify({ p: '/' });
    await Promise.all(
      Array.from({ length: 14 }, () => ask(served.fastPort, apiPaths.visit, { method: 'POST', headers, body })),
    );
    await served.t.app.jobs.runOnce('visit-flush');
    expect(await served.t.store.db.selectFrom('visits').selectAll().execute()).toHaveLength(10);
    expect(dropsOf(await scrape(), 'over-budget') - dropsOf(before, 'over-budget')).toBe(4);
  });

  it('counts its answers in the same HTTP metrics', async () => {
    const labels = { method: 'POST', route: apiPaths.visit, status: '204' };
    const before = await scrape();
    await both({ method: 'POST', headers: beaconHeaders, body: JSON.stringify({ p: '/' }) });
    const after = await scrape();
    const countOf = (text: string) => sampleOf(text, 'dh_http_requests_total', labels) ?? 0;
    expect(countOf(after) - countOf(before)).toBe(2);
  });
});

describe('the beacon fast path steps aside', () => {
  const taken: string[] = [];
  const intake: VisitIntake = { take: () => taken.push('take'), refuse: () => taken.push('refuse') };
  const headersFor = securityHeadersFor({ styleHashes: [], scriptHashes: [], publicUrl: 'https://dh.example' });
  const req = {
    method: 'POST',
    url: apiPaths.visit,
    headers: { ...beaconHeaders, 'content-length': '9' },
    socket: { remoteAddress: '130.149.7.201' },
  } as unknown as http.IncomingMessage;
  const res = {} as http.ServerResponse;

  it('while the overload guard sheds writes (its own 204, nothing counted), or with no client address', () => {
    const shedding = visitFastPath(intake, { headersFor, trust: false, underPressure: () => true, onError: () => {} });
    expect(shedding.answer(req, res)).toBe(0);
    const gone = { ...req, socket: {} } as unknown as http.IncomingMessage;
    const calm = visitFastPath(intake, { headersFor, trust: false, underPressure: () => false, onError: () => {} });
    expect(calm.answer(gone, res)).toBe(0);
    expect(taken).toEqual([]);
  });
});
