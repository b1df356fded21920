/**
 * The location fields the analytics store keeps for a visit. They are derived from the visitor's
 * address and never contain it: the address itself is not kept anywhere.
 */
export type GeoFields = {
  city: string;
  region: string;
  /** ISO 3166-1 alpha-2, e.g. "US". */
  country: string;
  /** "latitude,longitude" with 4 decimals, e.g. "37.7510,-97.8220". */
  loc: string;
  /** "AS15169 Google LLC". */
  org: string;
  postal: string;
  /** IANA zone, e.g. "Europe/Berlin". */
  timezone: string;
};

export const UNKNOWN = 'Unknown';

export const GEO_FIELD_NAMES = ['city', 'region', 'country', 'loc', 'org', 'postal', 'timezone'] as const;

export function unknownGeo(): GeoFields {
  return {
    city: UNKNOWN,
    region: UNKNOWN,
    country: UNKNOWN,
    loc: UNKNOWN,
    org: UNKNOWN,
    postal: UNKNOWN,
    timezone: UNKNOWN,
  };
}

/** Formats a coordinate pair the way ipinfo does, or undefined when it is not a real position. */
export function formatLoc(latitude: unknown, longitude: unknown): string | undefined {
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return undefined;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return undefined;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  return `${latitude.toFixed(4)},${longitude.toFixed(4)}`;
}
