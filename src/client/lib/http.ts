import type { z } from 'zod/mini';
import { apiErrorSchema, type ApiError } from '../../shared/api-error.ts';
import { xsrf } from '../../shared/xsrf.ts';
import { ensureXsrfCookie, readCookie } from './xsrf-cookie.ts';
import { answerLanguage } from './answer-language.ts';
import { connectionWords } from './connection-words.ts';

// The one way the browser writes to our server. Relative URLs only (our own origin, so nothing
// leaves for a third party), and every non-GET carries the X-XSRF-TOKEN header copied from the
// XSRF-TOKEN cookie the server set (signed double-submit; see
// src/server/plugins/write-protection.ts). Every reply is checked against its schema from
// src/shared, so a caller only ever sees a typed answer or an error in words.

export { ensureXsrfCookie };

/** The token cookie: `__Host-` prefixed where the site is on https, plain on http (development). */
const xsrfCookie = (): string | null => readCookie(xsrf.hostCookie) ?? readCookie(xsrf.cookie);

async function xsrfToken(force = false): Promise<string> {
  await ensureXsrfCookie(force);
  return xsrfCookie() ?? '';
}

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

export async function apiSend<S extends z.ZodMiniType>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown,
  replySchema: S,
): Promise<ApiResult<z.output<S>>> {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`apiSend takes a relative URL, got ${path}`);
  return request(path, replySchema, async (force) => ({
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

/**
 * Reads JSON (a GET never changes anything, so it carries no XSRF token) and parses the reply like
 * apiSend. `query` values that are undefined or empty are left out. `extraHeaders`: e.g. the
 * console's mark on its own polling (BACKGROUND_HEADER), which keeps it from renewing a session.
 */
export async function apiGet<S extends z.ZodMiniType>(
  path: string,
  replySchema: S,
  query: Record<string, string | number | undefined> = {},
  extraHeaders: Record<string, string> = {},
): Promise<ApiResult<z.output<S>>> {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`apiGet takes a relative URL, got ${path}`);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const url = params.size ? `${path}?${params.toString()}` : path;
  return request(url, replySchema, async () => ({
    method: 'GET',
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...answerLanguage(), ...extraHeaders },
  }));
}

/** `init(force)`: the request to make; `force` asks for fresh cookies first (after a refused token). */
async function request<S extends z.ZodMiniType>(
  url: string,
  replySchema: S,
  init: (force: boolean) => Promise<RequestInit>,
): Promise<ApiResult<z.output<S>>> {
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
    if (res.status === 403 && apiErrorSchema.safeParse(json).data?.error.code === 'csrf')
      ({ res, json } = await send(true));
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
  if (res.ok) {
    const reply = replySchema.safeParse(json);
    if (reply.success) return { ok: true, status: res.status, data: reply.data };
    return {
      ok: false,
      status: res.status,
      error: { code: 'internal', message: connectionWords().unreadable },
      retryAfter,
    };
  }
  const error = apiErrorSchema.safeParse(json);
  return {
    ok: false,
    status: res.status,
    error: error.success ? error.data.error : { code: 'internal', message: connectionWords().unreadable },
    retryAfter,
  };
}
