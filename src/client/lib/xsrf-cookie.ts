import { apiPaths, xsrf } from '../../shared/site-pages.ts';

// The form's cookies, on their own so the page's loader can ask for them without loading the
// HTTP helper or the form (entry-client.ts); http.ts re-exports them unchanged.

export const readCookie = (name: string): string | null => {
  for (const part of document.cookie.split('; ')) {
    const eq = part.indexOf('=');
    if (part.slice(0, eq) === name) return decodeURIComponent(part.slice(eq + 1));
  }
  return null;
};

let pending: Promise<void> | null = null;

/**
 * Pages are cookie-free (so they cache); a page with a form calls this once it has loaded, which
 * also starts the server's "faster than a person" clock. Callers that overlap share one request,
 * so the clock is started once.
 */
export function ensureXsrfCookie(): Promise<void> {
  if (readCookie(xsrf.cookie)) return Promise.resolve();
  pending ??= fetch(apiPaths.csrf, { credentials: 'same-origin' }).then(
    () => {
      pending = null;
    },
    (error: unknown) => {
      pending = null;
      throw error;
    },
  );
  return pending;
}
