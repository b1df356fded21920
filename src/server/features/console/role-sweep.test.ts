import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeastRole } from '../../../shared/admin/contracts.ts';
import { operatorRoles, roleAllows } from '../../../shared/admin/roles.ts';
import { adminApiPaths as p, apiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { ConsoleClient, makeOperator } from '../../test/admin-kit.ts';
import { leastRoles } from './least-roles.ts';

// Which role each console route needs, written once in its contract (src/shared/admin/contracts.ts)
// and checked against the running app: every route under /api/admin must have one (a new route is
// a decision about who may call it), and an operator below a route's role is refused with 403
// `forbidden` before the handler runs, whatever they send. Decision 0028.
const LEAST: Record<string, LeastRole> = Object.fromEntries(leastRoles);

let t: TestApp;
const routes: string[] = [];

beforeAll(async () => {
  t = await buildTestApp({
    onRoute: (r: RouteOptions) => {
      for (const method of [r.method].flat())
        if (r.url.startsWith(apiPaths.admin) && method !== 'HEAD') routes.push(`${String(method)} ${r.url}`);
    },
  });
  await t.app.ready();
});
afterAll(() => t.close());

const concrete = (url: string) => url.replace(/:[^/]+/g, 'x');

describe('roles on every console route', () => {
  it('finds a contract with its least role for every /api/admin route, and a route for every contract', () => {
    expect(new Set(routes)).toEqual(new Set(Object.keys(LEAST)));
  });

  it.each(operatorRoles)('refuses a %s exactly the routes above their role, with 403 forbidden', async (role) => {
    const op = await makeOperator(t.store.db, `${role}-sweep@example.com`, t.clock(), role);
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    for (const key of routes) {
      const least = LEAST[key];
      if (least === undefined || least === 'public') continue;
      const [method = 'GET', url = ''] = key.split(' ');
      // Skip the calls that would end this client's own session part-way through the sweep.
      if (url === p.signOut || url === p.endAllSessions || url === p.endSession) continue;
      const res = await c.send(method as 'GET' | 'POST', concrete(url), method === 'GET' ? undefined : {});
      const refused = res.statusCode === 403 && (res.json() as { error: { code: string } }).error.code === 'forbidden';
      expect(refused, `${role} ${key}: ${res.statusCode} ${res.body.slice(0, 120)}`).toBe(!roleAllows(role, least));
    }
  });

  it('says in words which role would do', async () => {
    const op = await makeOperator(t.store.db, 'viewer-words@example.com', t.clock(), 'viewer');
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    const res = await c.get(p.subscribers);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toMatch(/needs a sender.*you are a viewer/);
    const session = await c.get(p.session);
    expect(session.json().operator).toEqual({ email: 'viewer-words@example.com', role: 'viewer' });
  });
});
