import type { ApiError } from '../../shared/api-error.ts';
import { xsrf } from '../../shared/xsrf.ts';
import { answerLanguage } from './answer-language.ts';
import { connectionWords } from './connection-words.ts';
import { ensureXsrfCookie, readCookie } from './xsrf-cookie.ts';

// The one way the browser talks to our server, below both callers of a route contract: callContract
// (http.ts, which checks every reply against its zod schema) and callRoute (call-route.ts, for the
// allowlist's plain-script island, which must carry no zod). Relative URLs only (our own origin, so
// nothing leaves for a third party), and every write carries the X-XSRF-TOKEN header copied from
// the XSRF-TOKEN cookie the server set (signed double-submit; src/server/plugins/write-protection.ts).
// zod-free on purpose: what a reply is read with is the caller's (ReplyReader).

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | {
      ok: false;
      /** 0 when the server could not be reached at all. */
      status: number;
      error: ApiError;
      /** Retry-After in seconds, when the server sent one. */
      retryAfter: number | null;
    };

/** How a caller reads a 2xx's JSON and an error's (null: unreadable, answered in the browser's words). */
export interface ReplyReader<T> {
  reply: (json: unknown) => { data: T } | null;
  error: (json: unknown) => ApiError | null;
}

/** The token cookie: `__Host-` prefixed where the site is on https, plain on http (development). */
const xsrfCookie = (): string | null => readCookie(xsrf.hostCookie) ?? readCookie(xsrf.cookie);

async function xsrfToken(force = false): Promise<string> {
  await ensureXsrfCookie(force);
  return xsrfCookie() ?? '';
}

/** A JSON write, with the XSRF token. */
export function sendJson<T>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown,
  read: ReplyReader<T>,
): Promise<ApiResult<T>> {
  return request(path, read, async (force) => ({
    method,
    credentials: 'same-origin',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...answerLanguage(),
      [xsrf.header]: await xsrfToken(force),
    },
    body: JSON.stringify(body),
  }));
}

/** A JSON read: a GET never changes anything, so it carries no XSRF token. Empty query values are left out. */
export function getJson<T>(
  path: string,
  read: ReplyReader<T>,
  query: Record<string, string | number | undefined> = {},
  extraHeaders: Record<string, string> = {},
): Promise<ApiResult<T>> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const url = params.size ? `${path}?${params.toString()}` : path;
  return request(url, read, async () => ({
    method: 'GET',
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...answerLanguage(), ...extraHeaders },
  }));
}

/** `init(force)`: the request to make; `force` asks for fresh cookies first (after a refused token). */
async function request<T>(
  url: string,
  read: ReplyReader<T>,
  init: (force: boolean) => Promise<RequestInit>,
): Promise<ApiResult<T>> {
  const send = async (force: boolean) => {
    const res = await fetch(url, await init(force));
    const json: unknown = await res.json().catch(() => undefined);
    return { res, json };
  };
  let res: Response;
  let json: unknown;
  try {
    ({ res, json } = await send(false));
    // The token was refused (cookies out of date, e.g. from before a key rotation): get fresh
    // cookies and send once more, so the person never sees an error they cannot fix.
    if (res.status === 403 && read.error(json)?.code === 'csrf') ({ res, json } = await send(true));
  } catch {
    return {
      ok: false,
      status: 0,
      error: { code: 'unavailable', message: connectionWords().offline },
      retryAfter: null,
    };
  }
  const retry = Number(res.headers.get('retry-after'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : null;
  const unreadable: ApiError = { code: 'internal', message: connectionWords().unreadable };
  if (res.ok) {
    const reply = read.reply(json);
    if (reply) return { ok: true, status: res.status, data: reply.data };
    return { ok: false, status: res.status, error: unreadable, retryAfter };
  }
  return { ok: false, status: res.status, error: read.error(json) ?? unreadable, retryAfter };
}
