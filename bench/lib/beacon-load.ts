// The beacons a load run sends (POST /api/visit, as the page's script sends them): shared by the
// beacon bench and the request profiler (bench/request-profile.ts).
import type autocannon from 'autocannon';

export const VISIT_PATH = '/api/visit';

export const BEACON_BODY = JSON.stringify({ p: '/', r: 'https://t.co/x', tz: 'Europe/Berlin', l: 'en-GB' });
export const BEACON_HEADERS = {
  'content-type': 'application/json',
  'sec-fetch-site': 'same-origin',
  // A current desktop Chrome, so isbot does not filter the beacon out as a crawler.
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

// Behind TRUST_PROXY the client address comes from X-Forwarded-For. A different public address
// per beacon makes the geo lookup and the visitor hash do the work real traffic gives them (an
// address repeated for ever would be answered from caches). 81.0.0.0/8 is allocated to European
// networks, so most lookups find a city. A fixed-seed generator keeps runs comparable.
let seed = 0x9e3779b9;
export function nextAddress(): string {
  // xorshift32
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  const n = seed >>> 0;
  return `81.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255 || 1}`;
}

export const beaconRequests: autocannon.Request[] = [
  {
    method: 'POST',
    path: VISIT_PATH,
    headers: BEACON_HEADERS,
    body: BEACON_BODY,
    setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-forwarded-for': nextAddress() } }),
  },
];
