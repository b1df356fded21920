// These tests read the real databases shipped in the npm packages; the country assertions are for
// addresses whose location has been stable for many years (a DNS anycast block registered to
// Google in the US, TU Berlin, the University of Tokyo, MaxMind's own UK test address).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeoLookup, geoLookupFrom, openGeoDatabases, type GeoFields, type GeoLookup } from './geo-lookup.ts';
import { GEO_FIELD_NAMES, unknownGeo } from './geo-fields.ts';

let geo: GeoLookup;

beforeAll(async () => {
  geo = await createGeoLookup();
}, 60_000);

afterAll(() => geo.close());

const NOT_LOOKED_UP = [
  '10.0.0.1',
  '192.168.1.1',
  '172.16.0.1',
  '127.0.0.1',
  '100.64.0.1',
  '169.254.1.1',
  '192.0.2.1',
  '198.51.100.1',
  '203.0.113.1',
  '224.0.0.1',
  '0.0.0.0',
  '255.255.255.255',
  '240.0.0.1',
  '::1',
  '::',
  'fc00::1',
  'fe80::1',
  'ff02::1',
  '2001:db8::1',
  '::ffff:10.0.0.1',
  '::ffff:127.0.0.1',
  '2002:c0a8:0101::1',
  'not an ip',
  '',
  '8.8.8.8 ',
  '127.1',
  '[::1]',
  'fe80::1%eth0',
  'x'.repeat(10_000),
];

describe('local lookup against the packaged databases', () => {
  it('resolves well-known public IPv4 addresses to their country', () => {
    expect(geo.lookupLocal('8.8.8.8').country).toBe('US');
    expect(geo.lookupLocal('130.149.7.201').country).toBe('DE'); // TU Berlin
    expect(geo.lookupLocal('133.11.0.1').country).toBe('JP'); // University of Tokyo
    expect(geo.lookupLocal('81.2.69.142').country).toBe('GB'); // MaxMind's test address
  });

  it('resolves IPv6 from the IPv6 file, not from the IPv4 one', () => {
    expect(geo.lookupLocal('2001:4860:4860::8888').country).toBe('US');
    // The IPv4 file walks the first 32 bits of this (42.0.20.80) and says CN; the right file says DE.
    expect(geo.lookupLocal('2a00:1450:4001:800::200e').country).toBe('DE');
  });

  it('gives the ASN and its holder as org', () => {
    expect(geo.lookupLocal('8.8.8.8').org).toMatch(/^AS15169 /);
    expect(geo.lookupLocal('8.8.8.8').org).toContain('Google');
    expect(geo.lookupLocal('2001:4860:4860::8888').org).toMatch(/^AS15169 /);
    // No city record for 1.1.1.1 in GeoLite2, but the ASN data knows it.
    expect(geo.lookupLocal('1.1.1.1').org).toMatch(/^AS13335 /);
  });

  it('fills every field in the documented formats for a city-level record', () => {
    const berlin = geo.lookupLocal('130.149.7.201');
    expect(berlin).toEqual({
      city: expect.any(String),
      region: expect.any(String),
      country: 'DE',
      loc: expect.stringMatching(/^-?\d{1,2}\.\d{4},-?\d{1,3}\.\d{4}$/),
      org: expect.stringMatching(/^AS\d+ \S/),
      postal: expect.any(String),
      timezone: 'Europe/Berlin',
    });
    expect(berlin.city).not.toBe('Unknown');
    expect(berlin.region).not.toBe('Unknown');
  });

  it('says "Unknown" for what a country-level record leaves out, never an empty string', () => {
    const google = geo.lookupLocal('8.8.8.8');
    for (const name of GEO_FIELD_NAMES) expect(google[name]).not.toBe('');
    expect(google.loc).toMatch(/^\d+\.\d{4},-\d+\.\d{4}$/);
    expect(google.timezone).toMatch(/^America\//);
  });

  it('looks IPv4 carried in IPv6 up as the IPv4 address', () => {
    expect(geo.lookupLocal('::ffff:8.8.8.8')).toEqual(geo.lookupLocal('8.8.8.8'));
    expect(geo.lookupLocal('2002:0808:0808::1')).toEqual(geo.lookupLocal('8.8.8.8'));
  });

  it.each(NOT_LOOKED_UP)('%j: every field "Unknown"', async (ip) => {
    expect(geo.lookupLocal(ip)).toEqual(unknownGeo());
    expect(await geo.lookup(ip)).toEqual(unknownGeo());
  });

  it('never throws on junk', async () => {
    for (const junk of [undefined, null, 42, {}, '::ffff:999.1.1.1', '1.2.3.4/24', '2001:4860:4860::8888::1']) {
      expect(geo.lookupLocal(junk as unknown as string)).toEqual(unknownGeo());
      await expect(geo.lookup(junk as unknown as string)).resolves.toEqual(unknownGeo());
    }
  });

  it('returns only derived fields: none contains the address', () => {
    for (const ip of ['8.8.8.8', '130.149.7.201', '2001:4860:4860::8888', '81.2.69.142']) {
      const fields: GeoFields = geo.lookupLocal(ip);
      expect(Object.keys(fields).sort()).toEqual([...GEO_FIELD_NAMES].sort());
      expect(JSON.stringify(fields)).not.toContain(ip);
    }
  });

  it('lookup() without a remote provider gives the local answer', async () => {
    expect(await geo.lookup('130.149.7.201')).toEqual(geo.lookupLocal('130.149.7.201'));
  });

  it('answers in microseconds', () => {
    // A loose bound: the point is "no I/O, no await", not a benchmark on a shared CI machine.
    let seed = 12345;
    const ips = Array.from({ length: 20_000 }, () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return `${((seed >>> 24) % 223) + 1}.${(seed >>> 16) & 255}.${(seed >>> 8) & 255}.${seed & 255}`;
    });
    const started = performance.now();
    for (const ip of ips) geo.lookupLocal(ip);
    const microsEach = ((performance.now() - started) * 1000) / ips.length;
    expect(microsEach).toBeLessThan(200);
  });
});

describe('after close()', () => {
  it('answers "Unknown" instead of using released databases', async () => {
    const own = geoLookupFrom(await openGeoDatabases());
    expect(own.lookupLocal('8.8.8.8').country).toBe('US');
    own.close();
    expect(own.lookupLocal('8.8.8.8')).toEqual(unknownGeo());
    expect(await own.lookup('8.8.8.8')).toEqual(unknownGeo());
  }, 60_000);
});
