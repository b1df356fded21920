// The visit beacon: one small POST to our own origin after the page has loaded. No dependencies,
// no cookies (credentials: 'omit'), no storage, nothing about the person beyond what any request
// carries. It is its own script so it can never delay or break the page.
import type { apiPaths } from '../../shared/paths.ts';
import type { VisitBeacon } from '../../shared/visit-schema.ts';

// The path as a type-checked copy: `typeof apiPaths.visit` is the literal in src/shared/paths.ts,
// so the compiler refuses any other string, while the beacon stays one file with no import at run
// time (a shared chunk would put a second request in front of it).
// eslint-disable-next-line no-restricted-syntax -- the type-checked copy decision 0009 allows
const VISIT_PATH: typeof apiPaths.visit = '/api/visit';

type PrivacyNavigator = Navigator & { globalPrivacyControl?: boolean };
// Temporal is not in TypeScript's DOM types yet; only this one call is used.
type WithTemporal = typeof globalThis & { Temporal?: { Now?: { timeZoneId?: () => string } } };

/**
 * The visitor's time zone name. Temporal reads it without loading anything; the first
 * Intl.DateTimeFormat loads locale data first, which took 17–25 ms on this 2-core machine, the
 * page's one long task on a slow phone once React was gone (npm run bench:page). Browsers without
 * Temporal still get it from Intl.
 */
const timeZone = (): string =>
  (globalThis as WithTemporal).Temporal?.Now?.timeZoneId?.() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

function send(): void {
  const nav = navigator as PrivacyNavigator;
  // The server honours these too; not sending at all is kinder.
  if (nav.globalPrivacyControl || nav.doNotTrack === '1') return;
  // Reading the zone may be slow (see timeZone): a task of its own, so neither it nor the request
  // adds up to one long task.
  const tz = timeZone();
  setTimeout(() => post({ p: location.pathname, r: document.referrer, tz, l: navigator.language }), 0);
}

function post(body: VisitBeacon): void {
  fetch(VISIT_PATH, {
    method: 'POST',
    keepalive: true,
    credentials: 'omit',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => undefined);
}

const later = () => setTimeout(send, 0);
const doc = document as Document & { prerendering?: boolean };
if (doc.prerendering) document.addEventListener('prerenderingchange', later, { once: true });
else if (document.readyState === 'complete') later();
else addEventListener('load', later, { once: true });
