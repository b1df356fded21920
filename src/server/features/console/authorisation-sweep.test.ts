import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApiPaths, apiPaths } from '../../../shared/paths.ts';
import { xsrf } from '../../../shared/xsrf.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { checkAdminRoute, requireRole } from '../operators/guards.ts';
import { ConsoleClient, makeOperator, type TestOperator } from '../../test/admin-kit.ts';

// Every route under /api/admin, found by walking the app's route table as it is built (so a route
// added later is in the sweep without anyone listing it), is refused without a session (401) and
// from another site (403), and every write without the XSRF token (403).

// The only console routes that answer without a session. Adding one here is a decision.
const PUBLIC = new Set([`POST ${adminApiPaths.signIn}`, `POST ${adminApiPaths.secondFactor}`]);

let t: TestApp;
let op: TestOperator;
const routes: { method: string; url: string }[] = [];

beforeAll(async () => {
  t = await buildTestApp({
    onRoute: (r: RouteOptions) => {
      for (const method of [r.method].flat()) routes.push({ method: String(method), url: r.url });
    },
  });
  await t.app.ready();
  op = await makeOperator(t.store.db, 'sweep@example.com', t.clock());
});
afterAll(() => t.close());

const adminRoutes = () => routes.filter((r) => r.url.startsWith(apiPaths.admin));
const concrete = (url: string) => url.replace(/:[^/]+/g, 'x');
const isWrite = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);

describe('the authorisation sweep over every /api/admin route', () => {
  it('finds the console routes in the route table', () => {
    const found = new Set(adminRoutes().map((r) => `${r.method} ${r.url}`));
    expect(found.size).toBeGreaterThanOrEqual(9);
    for (const p of PUBLIC) expect(found).toContain(p);
  });

  it('answers 401 without a session (every route but the sign-in steps)', async () => {
    const anonymous = new ConsoleClient(t.app);
    for (const { method, url } of adminRoutes()) {
      if (PUBLIC.has(`${method} ${url}`)) continue;
      const res = await anonymous.send(method as 'GET' | 'POST', concrete(url), isWrite(method) ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      if (method !== 'HEAD') expect(res.json(), `${method} ${url}`).toMatchObject({ error: { code: 'unauthorized' } });
    }
  });

  it('answers 403 to a cross-site request, even with a valid session and token', async () => {
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    const crossSite = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      // Older browsers: no Sec-Fetch-Site, so Origin decides; neither at all is refused too.
      { 'sec-fetch-site': '', origin: 'https://evil.example' },
      { 'sec-fetch-site': '' },
    ];
    // A valid token, so the 403 can only come from the cross-site check.
    const token = c.cookies.get(xsrf.hostCookie) ?? c.cookies.get(xsrf.cookie) ?? '';
    expect(token).not.toBe('');
    for (const { method, url } of adminRoutes()) {
      for (const headers of crossSite) {
        const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ''));
        const res = await t.app.inject({
          method: method as 'GET',
          url: concrete(url),
          headers: {
            ...clean,
            cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
            [xsrf.header]: token,
          },
          ...(isWrite(method) ? { payload: {} } : {}),
        });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(clean)}`).toBe(403);
      }
    }
    expect((await c.get(adminApiPaths.session)).statusCode).toBe(200);
  });

  it('answers 403 to a write without the XSRF token, with a valid session', async () => {
    const c = new ConsoleClient(t.app);
    await c.signIn(op, new Date(t.clock().getTime() + 30_000));
    for (const { method, url } of adminRoutes().filter((r) => isWrite(r.method))) {
      const res = await c.send(method as 'POST', concrete(url), {}, { [xsrf.header]: '' });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error.code, `${method} ${url}`).toBe('csrf');
    }
  });

  it('stops the server from starting when a console route has no role guard', () => {
    const route = (extra: Partial<RouteOptions>) =>
      ({ method: 'GET', url: `${apiPaths.admin}/new`, handler: () => undefined, ...extra }) as RouteOptions;
    const viewer = requireRole('viewer');
    expect(() => checkAdminRoute(route({}))).toThrow(/has no role guard/);
    expect(() => checkAdminRoute(route({ onRequest: [async () => undefined, viewer] }))).toThrow(/has no role guard/);
    // A hook that looks like a guard but was not made by requireRole does not count.
    expect(() => checkAdminRoute(route({ onRequest: async () => undefined }))).toThrow(/has no role guard/);
    expect(() => checkAdminRoute(route({ onRequest: viewer }))).not.toThrow();
    expect(() => checkAdminRoute(route({ onRequest: requireRole('owner', { freshProof: true }) }))).not.toThrow();
    expect(() => checkAdminRoute(route({ config: { adminPublic: true } }))).not.toThrow();
    expect(() => checkAdminRoute(route({ url: '/api/elsewhere', onRequest: viewer }))).toThrow(/must live under/);
  });
});
