// The visit beacon: one small POST to our own origin after the page has loaded. No dependencies,
// no cookies (credentials: 'omit'), no storage, nothing about the person beyond what any request
// carries. It is its own script so it can never delay or break the page.
import { apiPaths } from '../../shared/paths.ts';
import type { VisitBeacon } from '../../shared/visit-schema.ts';

type PrivacyNavigator = Navigator & { globalPrivacyControl?: boolean };

function send(): void {
  const nav = navigator as PrivacyNavigator;
  // The server honours these too; not sending at all is kinder.
  if (nav.globalPrivacyControl || nav.doNotTrack === '1') return;
  // The first Intl call loads time-zone data (milliseconds on a cheap phone): do it in a task of
  // its own, so neither it nor the request adds up to one long task.
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  setTimeout(() => post({ p: location.pathname, r: document.referrer, tz, l: navigator.language }), 0);
}

function post(body: VisitBeacon): void {
  fetch(apiPaths.visit, {
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
