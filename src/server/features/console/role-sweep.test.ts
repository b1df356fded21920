import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contracts from '../../../shared/admin/contracts.ts';
import type { LeastRole } from '../../../shared/admin/contracts.ts';
import { operatorRoles, roleAllows } from '../../../shared/admin/roles.ts';
import { sessionTimes } from '../../../shared/admin/sign-in-schema.ts';
import { adminApiPaths as p, apiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { ConsoleClient, makeOperator } from '../../test/admin-kit.ts';
import { isRoleGuard, requireRole } from '../operators/index.ts';
import { guardFromContract, routeGuards } from './route-guards.ts';

// Which role each console route needs, and whether it needs fresh proof, written once in its
// contract (src/shared/admin/contracts.ts) and checked against the running app: every route under
// /api/admin must have one (a new route is a decision about who may call it); an operator below a
// route's role is refused with 403 `forbidden` before the handler runs, whatever they send; and an
// operator whose proof is older than five minutes is asked for it (403 `fresh_proof_required`)
// exactly on the routes whose contract says freshProof. Decision 0028.
const LEAST: Record<string, LeastRole> = Object.fromEntries([...routeGuards].map(([key, g]) => [key, g.role]));

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
// The calls that would end the sweeping client's own session part-way through.
const endsOwnSession = (url: string) => [p.signOut, p.endAllSessions, p.endSession].some((s) => s === url);
const errorCode = (res: { statusCode: number; body: string }) =>
  res.statusCode === 403 ? (JSON.parse(res.body) as { error: { code: string } }).error.code : '';

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
      if (endsOwnSession(url)) continue;
      const res = await c.send(method as 'GET' | 'POST', concrete(url), method === 'GET' ? undefined : {});
      const refused = errorCode(res) === 'forbidden';
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

  it('asks for fresh proof exactly where the contract says, before the handler reads the request', async () => {
    const op = await makeOperator(t.store.db, 'owner-stale@example.com', t.clock(), 'owner');
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    t.clock.advance(sessionTimes.freshProofMs + 60_000);
    for (const key of routes) {
      const guard = routeGuards.get(key);
      const [method = 'GET', url = ''] = key.split(' ');
      if (guard === undefined || guard.role === 'public' || endsOwnSession(url)) continue;
      // A body no route takes: the guard answers before validation, a handler only after it.
      const res = await c.send(method as 'GET' | 'POST', concrete(url), method === 'GET' ? undefined : { nope: 1 });
      const asked = errorCode(res) === 'fresh_proof_required';
      expect(asked, `${key}: ${res.statusCode} ${res.body.slice(0, 120)}`).toBe(guard.freshProof);
    }
  });

  it('has every contract that needs fresh proof say it may answer fresh_proof_required', () => {
    for (const c of Object.values(contracts))
      if (typeof c === 'object' && 'freshProof' in c && c.freshProof)
        expect(c.errors as readonly string[], `${c.method} ${c.path}`).toContain('fresh_proof_required');
  });
});

describe('the guard comes from the contract, and only from it', () => {
  const route = (extra: Partial<RouteOptions>) =>
    ({ method: 'GET', url: p.audit, handler: () => undefined, ...extra }) as RouteOptions;

  it("puts the contract's guard first on a route that sets none", () => {
    const own = async () => undefined;
    const r = route({ onRequest: own });
    guardFromContract(r);
    const hooks = [r.onRequest].flat();
    expect(hooks).toHaveLength(2);
    expect(isRoleGuard(hooks[0])).toBe(true);
    expect(hooks[1]).toBe(own);
    const sign = route({ method: 'POST', url: p.signIn });
    guardFromContract(sign);
    expect(sign.config?.adminPublic).toBe(true);
    expect(sign.onRequest).toBeUndefined();
  });

  it('stops the start, naming the route, when a route sets a guard of its own or has no contract', () => {
    // Even the same role as its contract's: a route's role is written in one place.
    expect(() => guardFromContract(route({ onRequest: requireRole('sender') }))).toThrow(
      `Console route GET ${p.audit} sets its own guard`,
    );
    expect(() => guardFromContract(route({ onRequest: [async () => undefined, requireRole('owner')] }))).toThrow(
      /sets its own guard.*\(sender\)/,
    );
    expect(() => guardFromContract(route({ method: 'POST', url: p.signIn, config: { adminPublic: true } }))).toThrow(
      `Console route POST ${p.signIn} sets its own guard`,
    );
    expect(() => guardFromContract(route({ url: `${apiPaths.admin}/nowhere` }))).toThrow(
      `Console route GET ${apiPaths.admin}/nowhere has no contract`,
    );
  });
});
