/**
 * Optional second opinion from an ipinfo-style HTTP API (`GET {url}/{ip}` answering
 * `{ ip, city, region, country, loc, org, postal, timezone }`). Off unless configured: the local
 * databases are the default so that no visitor address leaves the server.
 *
 * Whatever goes wrong (timeout, network error, non-200, bad JSON, odd values), the visitor still
 * gets the local answer: analytics must never slow a page down by more than the timeout nor fail
 * it. Nothing here logs: the address and the token would be in whatever it logged.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { formatLoc, GEO_FIELD_NAMES, type GeoFields } from './geo-fields.ts';

export type RemoteGeoOptions = {
  /** Base URL; the address is appended as a path segment. */
  url: string;
  /** Sent as `Authorization: Bearer …`, never in the URL, where proxies and access logs keep it. */
  token?: string;
  /** Capped at 300 ms. */
  timeoutMs?: number;
  cacheSize?: number;
  cacheTtlMs?: number;
  fetchImpl?: typeof fetch;
  /** Milliseconds on a monotonic clock, for the cache's expiry; injected by tests. */
  now?: () => number;
};

export type RemoteGeo = {
  /**
   * The remote answer for a public address, each field it lacks taken from `local`. Resolves
   * within the timeout and never rejects.
   */
  lookup(ip: string, local: GeoFields): Promise<GeoFields>;
  close(): void;
};

const MAX_REMOTE_TIMEOUT_MS = 300;
const DEFAULT_CACHE_SIZE = 10_000;
const DEFAULT_CACHE_TTL_MS = 60 * 60 * 1000;
// An ipinfo answer is a few hundred bytes; anything much bigger is not one.
const MAX_BODY_CHARS = 16 * 1024;
const MAX_FIELD_CHARS = 200;

type RemoteAnswer = Partial<GeoFields>;

export function createRemoteGeo(options: RemoteGeoOptions): RemoteGeo {
  const base = baseUrl(options.url);
  const timeoutMs = Math.min(Math.max(1, options.timeoutMs ?? MAX_REMOTE_TIMEOUT_MS), MAX_REMOTE_TIMEOUT_MS);
  const fetchImpl = options.fetchImpl ?? fetch;
  const token = options.token === '' ? undefined : options.token;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;

  // The cache lives in this process's memory only and expires entries; its keys are keyed hashes of
  // the address rather than the address, so that a heap snapshot does not list recent visitors.
  const keySecret = randomBytes(32);
  const cacheKey = (ip: string) => createHmac('sha256', keySecret).update(ip).digest('base64url');

  async function ask(ip: string, cacheSignal: AbortSignal): Promise<RemoteAnswer | undefined> {
    try {
      const response = await fetchImpl(`${base}/${encodeURIComponent(ip)}`, {
        headers,
        signal: AbortSignal.any([cacheSignal, AbortSignal.timeout(timeoutMs)]),
        // A redirect would be followed with our headers to wherever it points.
        redirect: 'error',
      });
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => undefined);
        return undefined;
      }
      const text = await response.text();
      if (text.length > MAX_BODY_CHARS) return undefined;
      return readAnswer(JSON.parse(text), ip, token);
    } catch {
      // Timeout, refused connection, bad JSON: all mean "no remote answer", and the error text
      // could carry the URL with the address in it, so it goes nowhere.
      return undefined;
    }
  }

  // lru-cache's fetch() also makes concurrent lookups of one address share one request. A failure
  // resolves to undefined, which is not cached, so the next visit asks again.
  const cache = new LRUCache<string, RemoteAnswer, string>({
    max: options.cacheSize ?? DEFAULT_CACHE_SIZE,
    ttl: options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS,
    // (ttlResolution 0: lru-cache would otherwise keep one reading of the clock per real millisecond.)
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    fetchMethod: (_key, _stale, { signal, context }) => ask(context, signal),
  });

  return {
    async lookup(ip, local) {
      let answer: RemoteAnswer | undefined;
      try {
        // The deadline also covers a fetchImpl that ignores its abort signal.
        answer = await withDeadline(cache.fetch(cacheKey(ip), { context: ip }), timeoutMs);
      } catch {
        answer = undefined;
      }
      if (!answer) return { ...local };
      const merged = { ...local };
      for (const name of GEO_FIELD_NAMES) merged[name] = answer[name] ?? local[name];
      return merged;
    },
    close() {
      cache.clear();
    },
  };
}

function baseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // The URL is not repeated: a misconfigured one may hold a token.
    throw new Error('remote geo: url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('remote geo: url must be an absolute http(s) URL');
  }
  return url.href.replace(/\/+$/, '');
}

async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Keeps only well-formed values. A value that contains the address or the token is dropped: these
 * fields get stored, and neither may be stored, whatever the remote chose to echo.
 */
function readAnswer(json: unknown, ip: string, token: string | undefined): RemoteAnswer | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const raw = json as Record<string, unknown>;
  const answer: RemoteAnswer = {};
  for (const name of GEO_FIELD_NAMES) {
    const text = cleanText(raw[name]);
    if (text === undefined || text.includes(ip) || (token !== undefined && text.includes(token))) continue;
    const value = normalise[name](text);
    if (value !== undefined) answer[name] = value;
  }
  return answer;
}

function cleanText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (text === '' || text.length > MAX_FIELD_CHARS || /[\u0000-\u001f\u007f]/.test(text)) return undefined;
  return text;
}

const same = (text: string) => text;

const normalise: Record<keyof GeoFields, (text: string) => string | undefined> = {
  city: same,
  region: same,
  org: same,
  postal: same,
  country: (text) => (/^[A-Za-z]{2}$/.test(text) ? text.toUpperCase() : undefined),
  loc: (text) => {
    const match = /^(-?\d{1,3}(?:\.\d+)?),\s*(-?\d{1,3}(?:\.\d+)?)$/.exec(text);
    return match ? formatLoc(Number(match[1]), Number(match[2])) : undefined;
  },
  timezone: (text) => (/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(text) ? text : undefined),
};
