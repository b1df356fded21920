import { apiPaths, pagePaths } from '../../shared/paths.ts';
import { xsrf } from '../../shared/xsrf.ts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** What a browser would hold after loading the page: its cookies and the XSRF token. */
export interface Visitor {
  cookie: string;
  xsrf: string;
}

export async function visitPage(app: FastifyInstance, before: Visitor = { cookie: '', xsrf: '' }): Promise<Visitor> {
  // The page itself sets no cookies; the hydrated form asks /api/csrf for them at every load,
  // sending whatever cookies it already has (`before`).
  const res = await app.inject({ url: apiPaths.csrf, headers: before.cookie ? { cookie: before.cookie } : {} });
  return withCookies(before, res);
}

/** The visitor's cookie jar after a response: Set-Cookie adds, replaces and (when expired) removes. */
export function withCookies(before: Visitor, res: LightMyRequestResponse): Visitor {
  const jar = new Map<string, string>();
  for (const part of before.cookie.split('; ').filter(Boolean)) {
    const eq = part.indexOf('=');
    jar.set(part.slice(0, eq), part.slice(eq + 1));
  }
  for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
    if (c.maxAge === 0 || (c.expires && c.expires.getTime() <= Date.now())) jar.delete(c.name);
    else jar.set(c.name, c.value);
  }
  return {
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    xsrf: jar.get(xsrf.hostCookie) ?? jar.get(xsrf.cookie) ?? '',
  };
}

/** POSTs a sign-up as the hydrated form does: JSON, same origin, with the XSRF header. */
export function postSignupJson(
  app: FastifyInstance,
  visitor: Visitor,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: pagePaths.signup,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'sec-fetch-site': 'same-origin',
      cookie: visitor.cookie,
      'x-xsrf-token': visitor.xsrf,
      ...headers,
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** POSTs JSON to one of the page's API routes as its islands do: same origin, with the XSRF header. */
export function postJsonAs(
  app: FastifyInstance,
  visitor: Visitor,
  url: string,
  body: unknown,
  /** More headers: the page's language (accept-language), the client's address (x-forwarded-for). */
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      'sec-fetch-site': 'same-origin',
      cookie: visitor.cookie,
      'x-xsrf-token': visitor.xsrf,
      ...headers,
    },
    payload: JSON.stringify(body),
  });
}

/** POSTs a sign-up as the plain form does with JavaScript off. */
export function postSignupForm(
  app: FastifyInstance,
  visitor: Visitor,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: pagePaths.signup,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      origin: 'https://dh.example',
      cookie: visitor.cookie,
      ...headers,
    },
    payload: new URLSearchParams(fields).toString(),
  });
}
