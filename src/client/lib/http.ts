import { xsrf } from '../../shared/site-pages.ts';
import { ensureXsrfCookie, readCookie } from './xsrf-cookie.ts';

// The one way the browser writes to our server. Relative URLs only (our own origin, so nothing
// leaves for a third party), and every non-GET carries the X-XSRF-TOKEN header copied from the
// XSRF-TOKEN cookie the server set (signed double-submit; see src/server/http/write-protection.ts).

export { ensureXsrfCookie };

async function xsrfToken(): Promise<string> {
  await ensureXsrfCookie();
  return readCookie(xsrf.cookie) ?? '';
}

export interface ApiResponse<T> {
  status: number;
  body: T | null;
  /** Retry-After in seconds, when the server sent one. */
  retryAfter: number | null;
}

export async function apiSend<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body: unknown): Promise<ApiResponse<T>> {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`apiSend takes a relative URL, got ${path}`);
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      [xsrf.header]: await xsrfToken(),
    },
    body: JSON.stringify(body),
  });
  const parsed = (await res.json().catch(() => null)) as T | null;
  const retry = Number(res.headers.get('retry-after'));
  return { status: res.status, body: parsed, retryAfter: Number.isFinite(retry) && retry > 0 ? retry : null };
}
