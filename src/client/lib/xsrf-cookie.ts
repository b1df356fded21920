import type { csrfContract } from '../../shared/csrf-contract.ts';

// A type-checked copy of the contract's path (see beacon.ts): the loader imports this file, and a
// run-time import of the contract would become a chunk shared with the beacon, fetched before the
// loader runs. Its method is GET, fetch's own.
// eslint-disable-next-line no-restricted-syntax -- the type-checked copy decision 0009 allows
const CSRF_PATH: typeof csrfContract.path = '/api/csrf';

// The form's cookies, on their own so the page's loader can ask for them without loading the
// HTTP helper or the form (entry-client.ts); http.ts re-exports them unchanged.

export const readCookie = (name: string): string | null => {
  for (const part of document.cookie.split('; ')) {
    const eq = part.indexOf('=');
    if (part.slice(0, eq) === name) return decodeURIComponent(part.slice(eq + 1));
  }
  return null;
};

/**
 * Pages are cookie-free (so they cache); a page with a form calls this once it has loaded, which
 * also starts the server's "faster than a person" clock. It asks every time a page loads, not only
 * when the cookie is missing: the server checks the cookies it finds and re-signs or replaces
 * those made with a key it no longer uses (after a key rotation), which the browser cannot see.
 * Callers that overlap share one request; `force` asks again (after the server refused the token).
 */
let cookiesChecked: Promise<void> | undefined;
export function ensureXsrfCookie(force = false): Promise<void> {
  if (force || !cookiesChecked) {
    const asked = fetch(CSRF_PATH, { credentials: 'same-origin' }).then(() => undefined);
    // A failed check is tried again next time rather than remembered.
    asked.catch(() => {
      if (cookiesChecked === asked) cookiesChecked = undefined;
    });
    cookiesChecked = asked;
  }
  return cookiesChecked;
}
