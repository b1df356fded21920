import type { z } from 'zod/mini';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { getJson, sendJson, type ApiResult, type ReplyReader } from './transport.ts';
import { ensureXsrfCookie } from './xsrf-cookie.ts';

// The browser's calls whose replies are checked against their schema from src/shared (the form's
// island and the console), so a caller only ever sees a typed answer or an error in words. The
// request itself (relative URLs, XSRF token, language, one retry with fresh cookies) is
// transport.ts's, which the allowlist island shares without zod (call-route.ts).

export { ensureXsrfCookie };
export type { ApiResult };

const schemaReader = <S extends z.ZodMiniType>(replySchema: S): ReplyReader<z.output<S>> => ({
  reply: (json) => {
    const reply = replySchema.safeParse(json);
    return reply.success ? { data: reply.data } : null;
  },
  error: (json) => apiErrorSchema.safeParse(json).data?.error ?? null,
});

export async function apiSend<S extends z.ZodMiniType>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown,
  replySchema: S,
): Promise<ApiResult<z.output<S>>> {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`apiSend takes a relative URL, got ${path}`);
  return sendJson(method, path, body, schemaReader(replySchema));
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
  return getJson(path, schemaReader(replySchema), query, extraHeaders);
}
