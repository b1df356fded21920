// The remote path against a fake ipinfo on 127.0.0.1 (a random port), with the real local
// databases underneath for the fallback and the merge.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { geoLookupFrom, openGeoDatabases, type GeoDatabases, type GeoLookup } from './geo-lookup.ts';
import { unknownGeo, type GeoFields } from './geo-fields.ts';
import { createRemoteGeo } from './remote-geo.ts';

const TOKEN = 'tok_5ecret-value-7781';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type Seen = { url: string; authorization: string | undefined };

let server: Server;
let baseUrl: string;
let handler: Handler;
let seen: Seen[] = [];
const pendingTimers = new Set<NodeJS.Timeout>();
let dbs: GeoDatabases;
let local: GeoLookup;
const geos: GeoLookup[] = [];

const json =
  (body: unknown, status = 200): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
const after =
  (ms: number, inner: Handler): Handler =>
  (req, res) => {
    const timer = setTimeout(() => {
      pendingTimers.delete(timer);
      if (!res.destroyed) inner(req, res);
    }, ms);
    pendingTimers.add(timer);
  };

const MOUNTAIN_VIEW: Omit<GeoFields, never> & { ip: string; hostname: string } = {
  ip: '8.8.8.8',
  hostname: 'dns.google',
  city: 'Mountain View',
  region: 'California',
  country: 'US',
  loc: '37.4056,-122.0775',
  org: 'AS15169 Google LLC',
  postal: '94043',
  timezone: 'America/Los_Angeles',
};

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Opened once and shared: each lookup below differs only in its remote settings.
  dbs = await openGeoDatabases();
  local = geoLookupFrom(dbs);
}, 60_000);

afterEach(() => {
  for (const geo of geos.splice(0)) geo.close();
  seen = [];
});

afterAll(async () => {
  for (const timer of pendingTimers) clearTimeout(timer);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  local.close();
});

function withRemote(remote: {
  url: string;
  token?: string;
  timeoutMs?: number;
  cacheTtlMs?: number;
  now?: () => number;
}): GeoLookup {
  const geo = geoLookupFrom(dbs, { remote });
  geos.push(geo);
  return geo;
}
const remoteGeo = (extra: { timeoutMs?: number } = {}) => withRemote({ url: baseUrl, token: TOKEN, ...extra });

describe('remote provider', () => {
  it('uses the remote fields when the provider answers', async () => {
    handler = json(MOUNTAIN_VIEW);
    const geo = remoteGeo();
    expect(await geo.lookup('8.8.8.8')).toEqual({
      city: 'Mountain View',
      region: 'California',
      country: 'US',
      loc: '37.4056,-122.0775',
      org: 'AS15169 Google LLC',
      postal: '94043',
      timezone: 'America/Los_Angeles',
    });
    expect(seen.map((s) => s.url)).toEqual(['/8.8.8.8']);
  });

  it('fills what the remote answer lacks from the local databases', async () => {
    handler = json({
      ip: '130.149.7.201',
      city: 'Charlottenburg',
      country: 'de',
      loc: 'nowhere',
      timezone: 'not a zone!',
    });
    const geo = remoteGeo();
    const mine = local.lookupLocal('130.149.7.201');
    expect(await geo.lookup('130.149.7.201')).toEqual({ ...mine, city: 'Charlottenburg', country: 'DE' });
    expect(mine.region).not.toBe('Unknown');
  });

  it('keeps "Unknown" where neither side knows', async () => {
    handler = json({ ip: '8.8.8.8', bogon: false });
    const geo = remoteGeo();
    expect(await geo.lookup('8.8.8.8')).toEqual(local.lookupLocal('8.8.8.8'));
    expect(local.lookupLocal('8.8.8.8').city).toBe('Unknown');
  });

  it('abandons a slow provider at the timeout and answers locally', async () => {
    handler = after(1000, json(MOUNTAIN_VIEW));
    const geo = remoteGeo();
    const started = performance.now();
    const result = await geo.lookup('8.8.8.8');
    const elapsed = performance.now() - started;
    expect(result).toEqual(local.lookupLocal('8.8.8.8'));
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(400);
  });

  it('caps the timeout at 300 ms whatever is configured', async () => {
    handler = after(1000, json(MOUNTAIN_VIEW));
    const geo = remoteGeo({ timeoutMs: 5000 });
    const started = performance.now();
    await geo.lookup('8.8.4.4');
    expect(performance.now() - started).toBeLessThan(400);
  });

  it('honours a shorter timeout', async () => {
    handler = after(1000, json(MOUNTAIN_VIEW));
    const geo = remoteGeo({ timeoutMs: 50 });
    const started = performance.now();
    await geo.lookup('8.8.4.4');
    expect(performance.now() - started).toBeLessThan(200);
  });

  it.each([
    ['a 500', json({ error: 'boom' }, 500)],
    ['a 429', json({ error: { title: 'Rate limit exceeded' } }, 429)],
    ['a 204', (_req: IncomingMessage, res: ServerResponse) => res.writeHead(204).end()],
    [
      'a redirect',
      (_req: IncomingMessage, res: ServerResponse) => res.writeHead(302, { location: 'http://127.0.0.1:9/x' }).end(),
    ],
    ['bad JSON', json('{"city": "Mountain View", ')],
    ['an HTML page', json('<html>oops</html>')],
    ['a JSON array', json([MOUNTAIN_VIEW])],
    ['JSON null', json('null')],
    ['a huge body', json({ ...MOUNTAIN_VIEW, padding: 'x'.repeat(100_000) })],
    ['a dropped connection', (req: IncomingMessage) => req.socket.destroy()],
  ])('falls back to the local answer on %s', async (_label, h) => {
    handler = h;
    const geo = remoteGeo();
    expect(await geo.lookup('8.8.8.8')).toEqual(local.lookupLocal('8.8.8.8'));
  });

  it('falls back when nothing listens at the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const geo = withRemote({ url: `http://127.0.0.1:${port}` });
    expect(await geo.lookup('8.8.8.8')).toEqual(local.lookupLocal('8.8.8.8'));
  });

  it('serves a repeated address from the cache without a second request', async () => {
    handler = json(MOUNTAIN_VIEW);
    const geo = remoteGeo();
    const first = await geo.lookup('8.8.8.8');
    const second = await geo.lookup('8.8.8.8');
    // The mapped form is the same address, so the same cache entry.
    const third = await geo.lookup('::ffff:8.8.8.8');
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(seen).toHaveLength(1);
  });

  it('sends one request for concurrent lookups of one address', async () => {
    handler = after(50, json(MOUNTAIN_VIEW));
    const geo = remoteGeo();
    const results = await Promise.all([geo.lookup('8.8.8.8'), geo.lookup('8.8.8.8'), geo.lookup('8.8.8.8')]);
    expect(results.every((r) => r.city === 'Mountain View')).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('does not cache failures: the next visit asks again', async () => {
    handler = json({ error: 'boom' }, 500);
    const geo = remoteGeo();
    expect((await geo.lookup('8.8.8.8')).city).toBe('Unknown');
    handler = json(MOUNTAIN_VIEW);
    expect((await geo.lookup('8.8.8.8')).city).toBe('Mountain View');
    expect(seen).toHaveLength(2);
  });

  it('expires cached answers after the TTL', async () => {
    handler = json(MOUNTAIN_VIEW);
    let now = 1_000;
    const geo = withRemote({ url: baseUrl, cacheTtlMs: 30, now: () => now });
    await geo.lookup('8.8.8.8');
    now += 29;
    await geo.lookup('8.8.8.8');
    expect(seen).toHaveLength(1);
    now += 2;
    await geo.lookup('8.8.8.8');
    expect(seen).toHaveLength(2);
  });

  it('never asks about private, reserved or invalid addresses', async () => {
    handler = json(MOUNTAIN_VIEW);
    const geo = remoteGeo();
    for (const ip of [
      '10.0.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '100.64.0.1',
      '::1',
      'fc00::1',
      '::ffff:10.0.0.1',
      'not an ip',
      '',
    ]) {
      expect(await geo.lookup(ip)).toEqual(unknownGeo());
    }
    expect(seen).toHaveLength(0);
  });

  it('sends the token in the Authorization header, and never returns it', async () => {
    // A provider that echoes the token and the address back in fields that would be stored.
    handler = (req, res) =>
      json({
        ...MOUNTAIN_VIEW,
        org: `AS15169 ${req.headers.authorization ?? ''}`,
        city: `near ${req.url?.slice(1) ?? ''}`,
        region: TOKEN,
      })(req, res);
    const geo = remoteGeo();
    const result = await geo.lookup('8.8.8.8');
    expect(seen).toEqual([{ url: '/8.8.8.8', authorization: `Bearer ${TOKEN}` }]);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(JSON.stringify(result)).not.toContain('8.8.8.8');
    // Those fields fall back to the local answer; the honest ones are kept.
    const mine = local.lookupLocal('8.8.8.8');
    expect(result).toEqual({
      ...mine,
      country: 'US',
      loc: '37.4056,-122.0775',
      postal: '94043',
      timezone: 'America/Los_Angeles',
    });
  });

  it('sends no Authorization header without a token', async () => {
    handler = json(MOUNTAIN_VIEW);
    const geo = withRemote({ url: `${baseUrl}/` });
    await geo.lookup('2001:4860:4860::8888');
    expect(seen).toEqual([{ url: '/2001%3A4860%3A4860%3A%3A8888', authorization: undefined }]);
  });
});

describe('createRemoteGeo on its own', () => {
  it('gives up at the deadline even when fetch ignores its abort signal', async () => {
    const remote = createRemoteGeo({
      url: 'http://127.0.0.1:9',
      fetchImpl: () => new Promise<Response>(() => undefined),
    });
    const fallback = { ...unknownGeo(), country: 'US' };
    const started = performance.now();
    expect(await remote.lookup('8.8.8.8', fallback)).toEqual(fallback);
    expect(performance.now() - started).toBeLessThan(400);
    remote.close();
  });

  it('falls back when fetch throws synchronously', async () => {
    const remote = createRemoteGeo({
      url: 'http://127.0.0.1:9',
      fetchImpl: () => {
        throw new TypeError('boom');
      },
    });
    expect(await remote.lookup('8.8.8.8', unknownGeo())).toEqual(unknownGeo());
  });

  it('refuses a bad URL without repeating it', () => {
    for (const url of [`ftp://example.test/?token=${TOKEN}`, `not a url ${TOKEN}`]) {
      expect(() => createRemoteGeo({ url })).toThrow(/url must be an absolute http\(s\) URL/);
      try {
        createRemoteGeo({ url });
      } catch (err) {
        expect(String(err)).not.toContain(TOKEN);
      }
    }
  });
});
